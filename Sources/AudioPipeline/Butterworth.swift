import Foundation

/// A second-order Butterworth low-pass or high-pass (the bilinear transform's biquad), run sample by sample.
public struct Butterworth: Sendable {
    public enum Kind: Sendable { case lowPass, highPass }

    let b0, b1, a1, a2: Double
    var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    public init(_ kind: Kind, cutoffHz: Double, sampleRate: Int) {
        let omega = 2 * Double.pi * cutoffHz / Double(sampleRate)
        let alpha = sin(omega) / 2.0.squareRoot()
        let norm = 1 + alpha
        switch kind {
        case .lowPass: (b0, b1) = ((1 - cos(omega)) / 2 / norm, (1 - cos(omega)) / norm)
        case .highPass: (b0, b1) = ((1 + cos(omega)) / 2 / norm, -(1 + cos(omega)) / norm)
        }
        (a1, a2) = (-2 * cos(omega) / norm, (1 - alpha) / norm)
    }

    public mutating func callAsFunction(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2
        (x2, x1, y2, y1) = (x1, x, y1, y)
        return y
    }
}
