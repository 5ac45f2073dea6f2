import Foundation

// The figures of ISO 532-1:2017 (Annex A) that `ZwickerLoudness` computes with.
extension ZwickerLoudness {
    enum Tables {
        /// Third-octave bands, 25 Hz to 12.5 kHz.
        static let bands = 28
        /// The bands under 315 Hz, summed into the three lowest critical bands.
        static let lowBands = 11
        static let criticalBands = 20

        /// Table A.2: each band's three sections differ from the reference denominators (1 −2 1) by these
        /// amounts in their second and third coefficients (the numerators do not differ).
        static let filterDenominators: [[(Double, Double)]] = [
            [(-6.70260e-04, 6.59453e-04), (-3.75071e-04, 3.61926e-04), (-3.06523e-04, 2.97634e-04)],
            [(-8.47258e-04, 8.30131e-04), (-4.76448e-04, 4.55616e-04), (-3.88773e-04, 3.74685e-04)],
            [(-1.07210e-03, 1.04496e-03), (-6.06567e-04, 5.73553e-04), (-4.94004e-04, 4.71677e-04)],
            [(-1.35836e-03, 1.31535e-03), (-7.74327e-04, 7.22007e-04), (-6.29154e-04, 5.93771e-04)],
            [(-1.72380e-03, 1.65564e-03), (-9.91780e-04, 9.08866e-04), (-8.03529e-04, 7.47455e-04)],
            [(-2.19188e-03, 2.08388e-03), (-1.27545e-03, 1.14406e-03), (-1.02976e-03, 9.40900e-04)],
            [(-2.79386e-03, 2.62274e-03), (-1.64828e-03, 1.44006e-03), (-1.32520e-03, 1.18438e-03)],
            [(-3.57182e-03, 3.30071e-03), (-2.14252e-03, 1.81258e-03), (-1.71397e-03, 1.49082e-03)],
            [(-4.58305e-03, 4.15355e-03), (-2.80413e-03, 2.28135e-03), (-2.23006e-03, 1.87646e-03)],
            [(-5.90655e-03, 5.22622e-03), (-3.69947e-03, 2.87118e-03), (-2.92205e-03, 2.36178e-03)],
            [(-7.65243e-03, 6.57493e-03), (-4.92540e-03, 3.61318e-03), (-3.86007e-03, 2.97240e-03)],
            [(-1.00023e-02, 8.29610e-03), (-6.63788e-03, 4.55999e-03), (-5.15982e-03, 3.75306e-03)],
            [(-1.31230e-02, 1.04220e-02), (-9.02274e-03, 5.73132e-03), (-6.94543e-03, 4.71734e-03)],
            [(-1.73693e-02, 1.30947e-02), (-1.24176e-02, 7.20526e-03), (-9.46002e-03, 5.93145e-03)],
            [(-2.31934e-02, 1.64308e-02), (-1.73009e-02, 9.04761e-03), (-1.30358e-02, 7.44926e-03)],
            [(-3.13292e-02, 2.06370e-02), (-2.44342e-02, 1.13731e-02), (-1.82108e-02, 9.36778e-03)],
            [(-4.28261e-02, 2.59325e-02), (-3.49619e-02, 1.43046e-02), (-2.57855e-02, 1.17912e-02)],
            [(-5.91733e-02, 3.25054e-02), (-5.06072e-02, 1.79513e-02), (-3.69401e-02, 1.48094e-02)],
            [(-8.26348e-02, 4.05894e-02), (-7.40348e-02, 2.24476e-02), (-5.34977e-02, 1.85371e-02)],
            [(-1.17018e-01, 5.08116e-02), (-1.09516e-01, 2.81387e-02), (-7.85097e-02, 2.32872e-02)],
            [(-1.67714e-01, 6.37872e-02), (-1.63378e-01, 3.53729e-02), (-1.16419e-01, 2.93723e-02)],
            [(-2.42528e-01, 7.98576e-02), (-2.45161e-01, 4.43370e-02), (-1.73972e-01, 3.70015e-02)],
            [(-3.53142e-01, 9.96330e-02), (-3.69163e-01, 5.53535e-02), (-2.61399e-01, 4.65428e-02)],
            [(-5.16316e-01, 1.24177e-01), (-5.55473e-01, 6.89403e-02), (-3.93998e-01, 5.86715e-02)],
            [(-7.56635e-01, 1.55023e-01), (-8.34281e-01, 8.58123e-02), (-5.94547e-01, 7.43960e-02)],
            [(-1.10165e+00, 1.91713e-01), (-1.23939e+00, 1.05243e-01), (-8.91666e-01, 9.40354e-02)],
            [(-1.58477e+00, 2.39049e-01), (-1.80505e+00, 1.28794e-01), (-1.32500e+00, 1.21333e-01)],
            [(-2.50630e+00, 1.42308e-01), (-2.19464e+00, 2.76470e-01), (-1.90231e+00, 1.47304e-01)],
        ]
        /// Table A.2: each band's gain.
        static let filterGains: [Double] = [
            4.30764e-11, 8.59340e-11, 1.71424e-10, 3.41944e-10, 6.82035e-10, 1.36026e-09, 2.71261e-09,
            5.40870e-09, 1.07826e-08, 2.14910e-08, 4.28228e-08, 8.54316e-08, 1.70009e-07, 3.38215e-07,
            6.71990e-07, 1.33531e-06, 2.65172e-06, 5.25477e-06, 1.03780e-05, 2.04870e-05, 4.05198e-05,
            7.97914e-05, 1.56511e-04, 3.04954e-04, 5.99157e-04, 1.16544e-03, 2.27488e-03, 3.91006e-03,
        ]

        /// Upper ends of the level ranges (dB) for the low-band corrections.
        static let rangeUpperLevels: [Double] = [45, 55, 65, 71, 80, 90, 100, 120]
        /// Corrections (dB) of the eleven low bands' levels in each level range: equal-loudness contours.
        static let lowBandCorrections: [[Double]] = [
            [-32, -24, -16, -10, -5, 0, -7, -3, 0, -2, 0],
            [-29, -22, -15, -10, -4, 0, -7, -2, 0, -2, 0],
            [-27, -19, -14, -9, -4, 0, -6, -2, 0, -2, 0],
            [-25, -17, -12, -9, -3, 0, -5, -2, 0, -2, 0],
            [-23, -16, -11, -7, -3, 0, -4, -1, 0, -1, 0],
            [-20, -14, -10, -6, -3, 0, -4, -1, 0, -1, 0],
            [-18, -12, -9, -6, -2, 0, -3, -1, 0, -1, 0],
            [-15, -10, -8, -4, -2, 0, -3, -1, 0, -1, 0],
        ]
        /// Threshold in quiet of each critical band (dB).
        static let thresholdInQuiet: [Double] = [30, 18, 12, 8, 7, 6, 5, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
        /// Each critical band's loudness at its threshold's scale: 0.0635 · 10^(0.025 · threshold).
        static let loudnessScale = thresholdInQuiet.map { 0.0635 * pow(10, 0.025 * $0) }

        // The level tables as intensity factors (10^(dB/10)), so the core loudness takes no logarithm.
        /// A low band's intensity over this is past the level range (its level over RAP − DLL).
        static let lowBandRangeLimits: [[Double]] = rangeUpperLevels.indices.map { range in
            lowBandCorrections[range].map { (correction: Double) -> Double in
                intensity(ofDecibels: rangeUpperLevels[range] - correction)
            }
        }
        static let lowBandFactors: [[Double]] = lowBandCorrections.map { $0.map(intensity(ofDecibels:)) }
        /// A critical band is heard once its level, less the free-field transmission, passes the threshold.
        static let audibleIntensity: [Double] = (0..<criticalBands).map { (band: Int) -> Double in
            intensity(ofDecibels: thresholdInQuiet[band] + freeFieldTransmission[band])
        }
        /// 10^((level − transmission − band-width correction − threshold) / 10) per unit of intensity.
        static let excitationRatio: [Double] = (0..<criticalBands).map { (band: Int) -> Double in
            let decibels = freeFieldTransmission[band] + criticalBandCorrection[band] + thresholdInQuiet[band]
            return intensity(ofDecibels: -decibels)
        }

        static func intensity(ofDecibels decibels: Double) -> Double { pow(10, decibels / 10) }
        /// Attenuation of the outer ear in a free field (dB), subtracted from each critical band's level.
        static let freeFieldTransmission: [Double] = [
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.5, -1.6, -3.2, -5.4, -5.6, -4, -1.5, 2, 5, 12,
        ]
        /// Level correction (dB) for each critical band's width.
        static let criticalBandCorrection: [Double] = [
            -0.25, -0.6, -0.8, -0.8, -0.5, 0, 0.5, 1.1, 1.5, 1.7, 1.8, 1.8, 1.7, 1.6, 1.4, 1.2, 0.8, 0.5, 0, -0.5,
        ]
        /// Upper edge (Bark) of each critical band, and of the zero band that ends the slopes.
        static let bandUpperEdges: [Double] = [
            0.9, 1.8, 2.8, 3.5, 4.4, 5.4, 6.6, 7.9, 9.2, 10.6, 12.3, 13.8, 15.2, 16.7, 18.1, 19.3, 20.6, 21.8,
            22.7, 23.6, 24,
        ]
        /// Lower ends (sone/Bark) of the loudness ranges that set the masking slope.
        static let slopeRanges: [Double] = [
            21.5, 18, 15.1, 11.5, 9, 6.1, 4.4, 3.1, 2.13, 1.36, 0.82, 0.42, 0.30, 0.22, 0.15, 0.10, 0.035, 0,
        ]
        /// Upper masking slopes (sone/Bark per Bark): one row per loudness range, one column per critical
        /// band (the eighth column serves every band above it).
        static let upperSlopes: [[Double]] = [
            [13, 8.2, 6.3, 5.5, 5.5, 5.5, 5.5, 5.5],
            [9, 7.5, 6, 5.1, 4.5, 4.5, 4.5, 4.5],
            [7.8, 6.7, 5.6, 4.9, 4.4, 3.9, 3.9, 3.9],
            [6.2, 5.4, 4.6, 4.0, 3.5, 3.2, 3.2, 3.2],
            [4.5, 3.8, 3.6, 3.2, 2.9, 2.7, 2.7, 2.7],
            [3.7, 3.0, 2.8, 2.35, 2.2, 2.2, 2.2, 2.2],
            [2.9, 2.3, 2.1, 1.9, 1.8, 1.7, 1.7, 1.7],
            [2.4, 1.7, 1.5, 1.35, 1.3, 1.3, 1.3, 1.3],
            [1.95, 1.45, 1.3, 1.15, 1.1, 1.1, 1.1, 1.1],
            [1.5, 1.2, 0.94, 0.86, 0.82, 0.82, 0.82, 0.82],
            [0.72, 0.67, 0.64, 0.63, 0.62, 0.62, 0.62, 0.62],
            [0.59, 0.53, 0.51, 0.50, 0.42, 0.42, 0.42, 0.42],
            [0.40, 0.33, 0.26, 0.24, 0.24, 0.22, 0.22, 0.22],
            [0.27, 0.21, 0.20, 0.18, 0.17, 0.17, 0.17, 0.17],
            [0.16, 0.15, 0.14, 0.12, 0.11, 0.11, 0.11, 0.11],
            [0.12, 0.11, 0.10, 0.08, 0.08, 0.08, 0.08, 0.08],
            [0.09, 0.08, 0.07, 0.06, 0.06, 0.06, 0.06, 0.05],
            [0.06, 0.05, 0.03, 0.02, 0.02, 0.02, 0.02, 0.02],
        ]
    }
}
