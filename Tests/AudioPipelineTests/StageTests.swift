import Foundation
import PackManifest
import PackTools
import TestSupport
import Testing
import VoicePack

@testable import AudioPipeline

@Suite struct DownmixTests {
    let voice = TestSignals.vowel(rms: 0.1, seconds: 0.5)

    @Test func monoPassesThrough() {
        let (signal, decision) = Downmix().apply([voice], sampleRate: 44_100)
        #expect(decision == .mono)
        #expect(signal.samples == voice)
    }

    @Test func aSilentChannelDoesNotHalveTheLevel() {
        let quiet = TestSignals.noise(rms: 0.0001, seconds: 0.5)
        let (signal, decision) = Downmix().apply([voice, quiet], sampleRate: 44_100)
        #expect(decision == .picked(channel: 1, reason: "channel 2 silent"))
        #expect(abs(TestSignals.decibels(TestSignals.rms(signal.samples) / TestSignals.rms(voice))) < 0.1)
    }

    @Test func anOppositePhaseChannelDoesNotCancel() {
        let inverted = voice.map { -$0 * 0.9 }
        let (signal, decision) = Downmix().apply([inverted, voice], sampleRate: 44_100)
        #expect(decision == .picked(channel: 2, reason: "channel 1 in opposite phase"))
        #expect(abs(TestSignals.decibels(TestSignals.rms(signal.samples) / TestSignals.rms(voice))) < 0.1)
    }

    /// A 16 kHz mono voice whose header says two channels at 8 kHz (a real pack's 43 recordings were written so)
    /// holds its samples in turn: read as the one channel it is, every sample in its place.
    @Test func channelsThatAlternateOneVoicesSamplesAreReadAsOne() {
        let mono = TestSignals.syllable(vowelRMS: 0.1, fricativeBelowDB: 20, vowelSeconds: 0.4, rate: 16_000)
        let first = stride(from: 0, to: mono.count - 1, by: 2).map { mono[$0] }
        let second = stride(from: 1, to: mono.count, by: 2).map { mono[$0] }
        let (signal, decision) = Downmix().apply([first, second], sampleRate: 8_000)
        #expect(decision == .alternateSamples(sampleRate: 16_000))
        #expect(signal.sampleRate == 16_000)
        let inPlace = signal.samples == Array(mono.prefix(2 * first.count))
        #expect(inPlace)
    }

    /// Stereo as microphones and exports make it — one channel copied and scaled, one a sample behind or ahead of
    /// the other, each with its own noise — is averaged, at its own rate.
    @Test func stereoIsNotTakenForAlternateSamples() {
        for rate in [8_000, 44_100] {
            let voice = TestSignals.syllable(vowelRMS: 0.1, fricativeBelowDB: 20, vowelSeconds: 0.4, rate: rate)
            let noise = TestSignals.noise(rms: 0.003, seconds: Double(voice.count) / Double(rate), rate: rate, seed: 3)
            let pairs: [(String, [Float], [Float])] = [
                ("copied", voice, voice.map { $0 * 0.8 }),
                ("behind", voice, [0] + voice.dropLast()),
                ("ahead", voice, Array(voice.dropFirst()) + [0]),
                ("noisy", voice, zip(voice, noise).map { $0 + $1 }),
            ]
            for (name, left, right) in pairs {
                let (signal, decision) = Downmix().apply([left, right], sampleRate: rate)
                #expect(decision == .mixed(channels: [1, 2]), "\(name) at \(rate) Hz")
                #expect(signal.sampleRate == rate && signal.samples.count == voice.count)
            }
        }
    }

    @Test func matchingChannelsAreAveraged() {
        let (signal, decision) = Downmix().apply([voice, voice, voice.map { $0 * 0.5 }], sampleRate: 44_100)
        #expect(decision == .mixed(channels: [1, 2, 3]))
        #expect(abs(TestSignals.rms(signal.samples) - TestSignals.rms(voice) * 2.5 / 3) < 0.001)
    }
}

@Suite struct RemoveDCTests {
    /// 200 ms of silence, then a voice; all of it 0.2 over zero.
    @Test func removesAnOffsetAndKeepsTheSilenceSilent() {
        let voice = TestSignals.vowel(rms: 0.1, seconds: 0.5)
        let input = ([Float](repeating: 0, count: 8820) + voice).map { $0 + 0.2 }
        let output = RemoveDC().apply([input], sampleRate: 44_100)[0]
        // From the first sample the offset is gone: the silence stays silent, no thump.
        #expect(output[0..<8820].allSatisfy { abs($0) < 1e-6 })
        let voiced = output[8820...]
        #expect(abs(voiced.reduce(0, +) / Float(voiced.count)) < 0.002)
        #expect(abs(TestSignals.decibels(TestSignals.rms(voiced) / TestSignals.rms(voice))) < 0.1)
    }

    /// A voice whose waveform is asymmetric has a mean of its own; that is not an offset to take out
    /// of the silence around it.
    @Test func anAsymmetricVoiceLeavesTheSilenceAlone() {
        let asymmetric = TestSignals.vowel(rms: 0.1, seconds: 0.5).map { $0 > 0 ? $0 : $0 * 0.3 }
        let input = [Float](repeating: 0, count: 8820) + asymmetric + [Float](repeating: 0, count: 44_100)
        let output = RemoveDC().apply([input], sampleRate: 44_100)[0]
        #expect(TestSignals.rms(output[0..<8820]) == 0)
        #expect(TestSignals.decibels(TestSignals.rms(output[(input.count - 22_050)...]) / 0.1) < -80)
    }
}

@Suite struct ResampleTests {
    @Test(arguments: [8_000, 22_050, 48_000, 96_000])
    func keepsFrequencyAndLevel(rate: Int) throws {
        let tone = TestSignals.sine(frequency: 1000, amplitude: 0.5, seconds: 1, rate: rate)
        let output = try Resample(to: 44_100, quality: .best).apply(Signal(samples: tone, sampleRate: rate))
        #expect(output.sampleRate == 44_100)
        #expect(abs(output.frames - 44_100) <= 2)
        // Away from the edges the level is the input's, and zero crossings show the frequency.
        let middle = output.samples[4410..<39_690]
        #expect(abs(TestSignals.rms(middle) - 0.5 / 2.0.squareRoot()) < 0.005)
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 800) <= 1)
    }

    /// The default converter (`medium`) is the default because its errors lie under what a 16-bit fragment
    /// can hold: every tone up to 18 kHz comes out within −100 dB of the ideal, and a tone over the new
    /// Nyquist frequency is rejected by more than 100 dB. `best` is kept for 24-bit and float packs.
    @Test(arguments: [16_000, 22_050, 48_000, 96_000])
    func theDefaultConverterStaysUnderTheSixteenBitFloor(rate: Int) throws {
        let resample = Resample(to: 44_100, quality: .medium)  // the settings' default (PipelineSettingsTests)
        for frequency in [1_000.0, 6_000.0, 12_000.0, 18_000.0] where frequency < Double(rate) * 0.45 {
            let tone = TestSignals.sine(frequency: frequency, amplitude: 0.5, seconds: 1, rate: rate)
            let output = try resample.apply(Signal(samples: tone, sampleRate: rate)).samples
            let ideal = (4410..<39_690).map { 0.5 * sin(2 * .pi * frequency * Double($0) / 44_100) }
            let error = zip(output[4410..<39_690], ideal).map { pow(Double($0) - $1, 2) }.reduce(0, +)
            let power = ideal.map { $0 * $0 }.reduce(0, +)
            #expect(10 * log10(error / power) < -100, "\(rate) Hz source, \(frequency) Hz tone")
        }
        if rate > 44_100 {
            let above = TestSignals.sine(frequency: 23_000, amplitude: 0.5, seconds: 1, rate: rate)
            let output = try resample.apply(Signal(samples: above, sampleRate: rate)).samples
            #expect(TestSignals.decibels(TestSignals.rms(output[4410..<39_690]) / 0.5) < -100)
        }
    }

    @Test func theTargetRatePassesUntouched() throws {
        let tone = TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 0.1)
        let signal = Signal(samples: tone, sampleRate: 44_100)
        #expect(try Resample(to: 44_100, quality: .best).apply(signal) == signal)
    }
}

@Suite struct TrimTests {
    /// 300 ms of noise floor at −70 dBFS RMS, then a syllable whose fricative is 35 dB under its vowel,
    /// then 400 ms of the same floor.
    static func delivery(fricativeBelowDB: Double = 35) -> (samples: [Float], onset: Int, end: Int) {
        let syllable = TestSignals.syllable(vowelRMS: 0.1, fricativeBelowDB: fricativeBelowDB, vowelSeconds: 0.3)
        let lead = TestSignals.noise(rms: 0.000316, seconds: 0.3, seed: 3)
        let trail = TestSignals.noise(rms: 0.000316, seconds: 0.4, seed: 4)
        let mixed = lead + zip(syllable, TestSignals.noise(rms: 0.000316, seconds: 1, seed: 5)).map(+) + trail
        return (mixed, lead.count, lead.count + syllable.count)
    }

    @Test func keepsASoftFricativeOnsetAndCutsTheSilence() throws {
        let (samples, onset, end) = Self.delivery()
        let (trimmed, report) = try Trim(Settings().trim).apply(
            Signal(samples: samples, sampleRate: 44_100), name: "四.wav")
        let head = Double(onset) / 44.1 - report.headMs
        #expect(
            head >= 0,
            "the fricative onset was cut: trim reached \(report.headMs) ms, onset at \(Double(onset) / 44.1) ms")
        #expect(head <= 30, "\(head) ms of silence left at the head")
        // The fricative is all there: 80 ms of hiss at −35 dB after the pre-roll.
        let start = Int(head * 44.1)
        let fricative = trimmed.samples[(start + 441)..<(start + 3087)]
        #expect(abs(TestSignals.decibels(TestSignals.rms(fricative) / 0.1) + 35) < 1.5)
        let tail = report.tailMs - Double(samples.count - end) / 44.1
        #expect(tail <= 0, "the decaying tail was cut by \(tail) ms")
        #expect(report.tailMs > 300)
    }

    /// A room's noise 45 dB under full scale (most of it under 500 Hz) raises the threshold over a fricative 30 dB
    /// under its vowel (−50 dBFS): before, the sound started at the vowel, and 三 was heard as "an". The hiss lies
    /// over 3 kHz, where the room's noise is weak, and is kept; where there is no hiss, the noise before the vowel
    /// is not.
    @Test(arguments: [30.0, 90.0])
    func aFricativeUnderARoomsNoiseIsKept(fricativeBelowDB: Double) throws {
        let syllable = TestSignals.syllable(
            vowelRMS: 0.1, fricativeBelowDB: fricativeBelowDB, fricativeSeconds: 0.12, vowelSeconds: 0.3)
        let lead = 17_640
        var samples = [Float](repeating: 0, count: lead) + syllable + [Float](repeating: 0, count: 22_050)
        samples = zip(samples, Signals.roomNoise(rms: 0.0056, count: samples.count, rate: 44_100, cornerHz: 500)).map(+)
        let bounds = try Trim(Settings().trim).findSound(Signal(samples: samples, sampleRate: 44_100), name: "三.wav")
        let onsetMs = fricativeBelowDB < 60 ? 400.0 : 520.0
        #expect(bounds.startMs <= onsetMs + 10, "the sound starts at \(bounds.startMs) ms, the syllable at \(onsetMs)")
        #expect(bounds.startMs >= onsetMs - 20, "the sound starts at \(bounds.startMs) ms, in the room's noise")
    }

    /// A room's rumble 25 dB under a syllable swings by several dB from one 10 ms window to the next, over the
    /// threshold it sets for 15 ms and more, here and there: before, the sound started and ended at such a
    /// swing, hundreds of ms from the voice, and the fragment kept the noise (and was "another pace" in its pack).
    /// A stretch 20 dB under the voice and apart from it is not the word's.
    @Test func theRoomsNoiseRisingApartFromTheVoiceIsLeftOut() throws {
        let syllable = TestSignals.vowel(rms: 0.1, seconds: 0.3)
        let lead = 22_050
        var samples = [Float](repeating: 0, count: lead) + syllable + [Float](repeating: 0, count: 44_100)
        samples = zip(samples, Signals.roomNoise(rms: 0.0056, count: samples.count, rate: 44_100)).map(+)
        let bounds = try Trim(Settings().trim).findSound(Signal(samples: samples, sampleRate: 44_100), name: "八.wav")
        // What the rumble adds within 50 ms of the voice stays with it, as a fricative would.
        #expect((400...510).contains(bounds.startMs), "the sound starts at \(bounds.startMs) ms, the syllable at 500")
        #expect((780...900).contains(bounds.endMs), "the sound ends at \(bounds.endMs) ms, the syllable at 800")
    }

    /// A soft voice only 17 dB over the room's noise: the noise's swings are then within 20 dB of the voice, but
    /// stand only a dB or two over the threshold, where the voice stands 10 dB or more. Kept, they made houyinyu's
    /// 一 over pink noise "another pace" (682 ms a syllable for 276), and put 200 ms of noise before it.
    @Test(arguments: [0.3, 0.4, 0.5, 0.6, 0.7])
    func theRoomsNoiseJustOverTheThresholdIsLeftOutOfASoftVoice(leadSeconds: Double) throws {
        let syllable = TestSignals.vowel(rms: 0.02, seconds: 0.3)
        let lead = Int(leadSeconds * 44_100)
        var samples = [Float](repeating: 0, count: lead) + syllable + [Float](repeating: 0, count: 44_100)
        let noise = Signals.roomNoise(rms: 0.0028, count: samples.count, rate: 44_100, cornerHz: 300)
        samples = zip(samples, noise).map(+)
        let bounds = try Trim(Settings().trim).findSound(Signal(samples: samples, sampleRate: 44_100), name: "一.wav")
        let start = leadSeconds * 1000
        #expect(bounds.startMs >= start - 60, "the sound starts at \(bounds.startMs) ms, the syllable at \(start)")
        #expect(
            bounds.endMs <= start + 380 + 100, "the sound ends at \(bounds.endMs) ms, the syllable at \(start + 380)")
    }

    /// The noise is read outside the sound, digital silence left out: a noisy delivery padded with an editor's
    /// silence keeps its noise (−70 dBFS), and a clean syllable cut tight to its voice has none to read — its
    /// quietest windows are its own onset and decay, which were read as noise 25 dB under a real 伍.
    @Test func theNoiseIsReadOutsideTheSoundAndNotInDigitalSilence() throws {
        let trim = Trim(Settings().trim)
        let (samples, _, _) = Self.delivery()
        let silence = [Float](repeating: 0, count: 44_100)
        let padded = try trim.findSound(Signal(samples: silence + samples + silence, sampleRate: 44_100), name: "五.wav")
        #expect(abs(padded.noiseFloorDBFS - -70) < 3, "\(padded.noiseFloorDBFS)")
        let tight = TestSignals.vowel(rms: 0.1, seconds: 0.3, tailSeconds: 0.1)
        let cut = try trim.findSound(Signal(samples: [0] + tight, sampleRate: 44_100), name: "五.wav")
        #expect(cut.noiseFloorDBFS == -.infinity, "\(cut.noiseFloorDBFS)")
    }

    /// Room tone and nothing else: refused with the reason, not a crash (no window stands over the floor).
    @Test func steadyNoiseAloneIsAnError() throws {
        let hiss = TestSignals.noise(rms: 0.05, seconds: 0.5, seed: 8)
        let error = try #require(throws: AudioError.self) {
            try Trim(Settings().trim).apply(Signal(samples: hiss, sampleRate: 44_100), name: "digit_3.wav")
        }
        #expect(error.description.contains("digit_3.wav"))
        #expect(error.description.contains("no voice stands out of the noise"))
    }

    @Test func allSilenceIsAnError() {
        #expect(throws: AudioError.self) {
            try Trim(Settings().trim).apply(
                Signal(samples: [Float](repeating: 0, count: 44_100), sampleRate: 44_100), name: "x.wav")
        }
    }
}

@Suite struct LoudnessTests {
    /// A 1 kHz sine of peak amplitude A measures −3.01 + 20·log10(A) LUFS (K-weighting is ~0 dB there).
    @Test func aSineMeasuresItsKnownLevel() {
        let signal = Signal(samples: TestSignals.sine(frequency: 997, amplitude: 0.1, seconds: 2), sampleRate: 44_100)
        #expect(abs(LoudnessMeter.fragmentLoudness(signal) - -23.01) < 0.1)
        #expect(abs(LoudnessMeter.integratedLoudness(signal) - -23.01) < 0.1)
        #expect(abs(LoudnessMeter.truePeak(signal) - -20) < 0.1)
    }

    @Test(arguments: [0.4, 0.55, 1.0, 2.3])
    func isIntegratedLoudnessFrom400ms(seconds: Double) {
        let samples =
            TestSignals.syllable(vowelRMS: 0.05, fricativeBelowDB: 30, vowelSeconds: seconds)
            + TestSignals.vowel(rms: 0.2, seconds: seconds / 2)
        let signal = Signal(samples: samples, sampleRate: 44_100)
        #expect(LoudnessMeter.fragmentLoudness(signal) == LoudnessMeter.integratedLoudness(signal))
    }

    @Test func aSteadySoundMeasuresTheSameShortAndLong() {
        func measure(_ seconds: Double) -> Double {
            LoudnessMeter.fragmentLoudness(
                Signal(samples: TestSignals.sine(frequency: 997, amplitude: 0.1, seconds: seconds), sampleRate: 44_100))
        }
        #expect(abs(measure(0.1) - -23.01) < 0.1)
        #expect(abs(measure(0.3) - measure(2)) < 0.1)
    }

    /// A syllable — 10 ms of pre-roll, a fricative 35 dB under its vowel, a 20 ms attack, an 80 ms decay,
    /// 40 ms of post-roll — lasting 1.5 s, and the same syllable cut to 250 ms with a 10 ms fade.
    @Test func aSyllableCutTo250msMeasuresLikeTheWhole() {
        let whole =
            [Float](repeating: 0, count: 441)
            + TestSignals.syllable(vowelRMS: 0.1, fricativeBelowDB: 35, fricativeSeconds: 0.06, vowelSeconds: 1.39)
            + [Float](repeating: 0, count: 1764)
        var cut = Array(whole[0..<11_025])
        for index in 0..<441 { cut[cut.count - 1 - index] *= Float(index) / 441 }
        let short = LoudnessMeter.fragmentLoudness(Signal(samples: cut, sampleRate: 44_100))
        let long = LoudnessMeter.fragmentLoudness(Signal(samples: whole, sampleRate: 44_100))
        #expect(abs(short - long) < 0.5, "250 ms: \(short) LUFS, 1.5 s: \(long) LUFS")
    }

    /// Short syllables with their own attack and decay, against the same syllable sustained for 1.5 s.
    @Test(arguments: [0.3, 0.35])
    func aShortSyllableMeasuresLikeALongOne(seconds: Double) {
        func measure(_ seconds: Double) -> Double {
            let samples =
                [Float](repeating: 0, count: 441)
                + TestSignals.syllable(
                    vowelRMS: 0.1, fricativeBelowDB: 35, fricativeSeconds: 0.06, vowelSeconds: seconds - 0.11)
                + [Float](repeating: 0, count: 1764)
            return LoudnessMeter.fragmentLoudness(Signal(samples: samples, sampleRate: 44_100))
        }
        let short = measure(seconds)
        let long = measure(1.5)
        #expect(abs(short - long) < 0.5, "\(seconds) s: \(short) LUFS, 1.5 s: \(long) LUFS")
        #expect(
            LoudnessMeter.integratedLoudness(
                Signal(samples: TestSignals.vowel(rms: 0.1, seconds: 0.25), sampleRate: 44_100)) == -.infinity)
    }
}

@Suite struct NormalizeTests {
    static let targetPhon = Settings.Loudness().targetPhon

    static func heard(_ signal: Signal) throws -> Double { try HeardLoudness(signal, fullScaleDBSPL: 90).n5Phon() }

    @Test(arguments: [0.003, 0.05, 0.4])
    func reachesTheTargetUnderTheCeiling(rms: Double) throws {
        let signal = Signal(samples: TestSignals.vowel(rms: rms, seconds: 0.3), sampleRate: 44_100)
        let (output, report) = try Normalize(Settings().loudness).apply(signal, name: "x.wav")
        #expect(abs(try Self.heard(output) - Self.targetPhon) <= 0.1)
        #expect(abs(report.outputPhon - Self.targetPhon) <= 0.1)
        #expect(LoudnessMeter.truePeak(output) <= -1)
        #expect(report.limiterReductionDB == 0)
    }

    /// A click over a quiet tone cannot reach the target by gain alone under −1 dBTP: the limiter takes the
    /// click down instead of leaving the fragment quiet.
    @Test func limitsPeaksRatherThanComingOutQuiet() throws {
        var samples = TestSignals.vowel(rms: 0.05, seconds: 0.6)
        for index in 10_000..<10_040 { samples[index] = 0.5 }
        let signal = Signal(samples: samples, sampleRate: 44_100)
        let (output, report) = try Normalize(Settings().loudness).apply(signal, name: "x.wav")
        #expect(report.limiterReductionDB > 3)
        #expect(abs(try Self.heard(output) - Self.targetPhon) <= 0.2)
        #expect(LoudnessMeter.truePeak(output) <= -1)
    }

    /// Clicks 20 dB over a quiet vowel would need more than `maximumLimitingDB` to reach the target: the limiter
    /// stops at that depth (a real pack's fragment said 13.6 dB where the setting said 12), and the fragment
    /// stays as loud as that allows, under the ceiling.
    @Test(arguments: [6.0, 12.0])
    func limitingNeverPassesItsMaximum(maximum: Double) throws {
        var samples = TestSignals.vowel(rms: 0.01, seconds: 0.6)
        for start in stride(from: 2_000, to: samples.count - 100, by: 4_000) {
            for index in start..<(start + 20) { samples[index] = 0.9 }
        }
        let signal = Signal(samples: samples, sampleRate: 44_100)
        var loudness = Settings().loudness
        loudness.maximumLimitingDB = maximum
        let (output, report) = try Normalize(loudness).apply(signal, name: "x.wav")
        #expect(report.limiterReductionDB <= maximum + 0.05, "\(report.limiterReductionDB) dB")
        #expect(report.limiterReductionDB >= maximum - 0.5, "\(report.limiterReductionDB) dB")
        #expect(report.outputPhon < Self.targetPhon - 0.5, "the target is out of reach: \(report.outputPhon)")
        #expect(LoudnessMeter.truePeak(output) <= -1)
    }

    /// The heard loudness of a limited fragment is measured from the signal resampled once, the limiter's
    /// gains applied at the model's rate: the same, within 0.02 phon, as resampling the limited fragment.
    @Test(arguments: [22_050, 44_100, 48_000])
    func aLimitedFragmentIsHeardAsIfResampledAgain(rate: Int) throws {
        var samples = TestSignals.vowel(rms: 0.1, seconds: 0.8, rate: rate)
        for start in stride(from: rate / 10, to: samples.count - 100, by: rate / 7) {
            for index in start..<(start + 30) { samples[index] *= 6 }
        }
        let signal = Signal(samples: samples, sampleRate: rate)
        let (output, reduction, gains) = TruePeakLimiter(signal).apply(gainDB: 8, thresholdDB: -1.13)
        #expect(reduction > 6)
        let heard = try HeardLoudness(signal, fullScaleDBSPL: 90)
        let resampledAgain = try Self.heard(output)
        let limited = heard.limited(gainDB: 8, limiterGains: gains).n5Phon()
        #expect(abs(limited - resampledAgain) <= 0.02, "\(limited) against \(resampledAgain) phon")
    }

    /// One syllable — 10 ms of pre-roll, a fricative 35 dB under its vowel, a 20 ms attack, an 80 ms decay —
    /// cut to 150 ms, 250 ms and left at 1.5 s, each cut with a 10 ms fade: heard alike once normalized.
    @Test func aSyllableCutShortIsHeardLikeTheWhole() throws {
        let whole =
            [Float](repeating: 0, count: 441)
            + TestSignals.syllable(vowelRMS: 0.05, fricativeBelowDB: 35, fricativeSeconds: 0.06, vowelSeconds: 1.39)
            + [Float](repeating: 0, count: 1764)
        func cut(_ ms: Int) -> Signal {
            var samples = Array(whole[0..<min(whole.count, ms * 441 / 10)])
            for index in 0..<441 { samples[samples.count - 1 - index] *= Float(index) / 441 }
            return Signal(samples: samples, sampleRate: 44_100)
        }
        let heard = try [150, 250, 1500].map {
            try Self.heard(Normalize(Settings().loudness).apply(cut($0), name: "x.wav").0)
        }
        #expect(heard.max()! - heard.min()! <= 0.5, "\(heard) phon")
        // The first round's measure, which read such cuts alike in LUFS, left them 2–5 phon apart.
        let firstRound = [150, 250, 1500].map { cut($0) }.map { signal in
            let gain = -16 - LoudnessMeter.fragmentLoudness(signal)
            return try! Self.heard(Signal(samples: Normalize.scaled(signal.samples, by: gain), sampleRate: 44_100))
        }
        #expect(firstRound.max()! - firstRound.min()! > 1, "\(firstRound) phon")
    }

    /// A tone burst (harmonics of 150 Hz) of 100 ms and one of 2 s at the same level: a level meter reads them
    /// alike, hearing does not (a short sound is heard softer). Normalized, both are heard at the target, the
    /// short one raised by the difference the hearing model finds between them.
    @Test func aShortToneBurstGetsTheGainHearingAsksFor() throws {
        func burst(_ seconds: Double) -> Signal {
            let silence = [Float](repeating: 0, count: 2205)
            let tone = TestSignals.vowel(rms: 0.05, seconds: seconds, tailSeconds: 0.01)
            return Signal(samples: silence + tone + silence, sampleRate: 44_100)
        }
        let (shortOutput, short) = try Normalize(Settings().loudness).apply(burst(0.1), name: "short.wav")
        let (longOutput, long) = try Normalize(Settings().loudness).apply(burst(2), name: "long.wav")
        #expect(abs(try Self.heard(shortOutput) - Self.targetPhon) <= 0.1)
        #expect(abs(try Self.heard(longOutput) - Self.targetPhon) <= 0.1)
        let longHeardAtItsGain = try HeardLoudness(burst(2), fullScaleDBSPL: 90).n5Phon(gainDB: long.gainDB)
        let shortNeeds = try HeardLoudness(burst(0.1), fullScaleDBSPL: 90).gain(
            reaching: longHeardAtItsGain, tolerance: 0.01, from: long.gainDB)
        #expect(abs(short.gainDB - shortNeeds) <= 0.2, "short \(short.gainDB) dB, hearing asks \(shortNeeds) dB")
        #expect(short.gainDB - long.gainDB > 1)
    }

    @Test func refusesAbsurdGain() {
        let whisper = Signal(samples: TestSignals.vowel(rms: 0.00005, seconds: 0.5), sampleRate: 44_100)
        #expect(throws: AudioError.self) { try Normalize(Settings().loudness).apply(whisper, name: "x.wav") }
    }
}

@Suite struct EncodeTests {
    @Test(arguments: SampleFormatCases.all)
    func readsBackExactlyWhatWasQuantized(sampleFormat: String, container: String) throws {
        let folder = TemporaryFolder()
        let encode = Encode(sampleFormat: .init(rawValue: sampleFormat)!, container: .init(rawValue: container)!)
        let signal = Signal(samples: TestSignals.vowel(rms: 0.2, seconds: 0.2), sampleRate: 44_100)
        let quantized = encode.quantize(signal, ditherSeed: 42)
        try encode.write(quantized, to: folder.path("x.\(container)"))
        let (info, channels) = try folder.read(folder.path("x.\(container)"))
        #expect(info.format == FileFormat(container: container, encoding: sampleFormat))
        #expect(info.channels == 1 && info.sampleRate == 44_100)
        #expect(channels[0] == quantized.samples)
    }

    /// A file of several channels decodes into them in the file's order, across the reader's chunks.
    @Test func channelsComeBackInTheirOrder() throws {
        let folder = TemporaryFolder()
        let frames = 40_000
        let channels = (0..<3).map { (channel: Int) -> [Float] in
            let level = Float(channel + 1) / 8
            return (0..<frames).map { (frame: Int) -> Float in level + Float(frame % 1000) / 65_536 }
        }
        let path = try folder.write(
            "three.wav", channels: channels, format: FileFormat(container: "wav", encoding: "float32"))
        let (info, decoded) = try folder.read(path)
        #expect(info.channels == 3 && info.frames == frames)
        #expect(decoded == channels)
    }

    @Test func ditherIsTriangularAndRepeatable() {
        let encode = Encode(sampleFormat: .pcm16, container: .wav)
        let silence = Signal(samples: [Float](repeating: 0, count: 100_000), sampleRate: 44_100)
        let first = encode.quantize(silence, ditherSeed: 1)
        #expect(first == encode.quantize(silence, ditherSeed: 1))
        #expect(first != encode.quantize(silence, ditherSeed: 2))
        // TPDF of ±1 LSB rounds to −1, 0, +1 LSB only, with 0 the most common.
        let levels = Dictionary(grouping: first.samples.map { Int($0 * 32768) }, by: { $0 }).mapValues(\.count)
        #expect(Set(levels.keys) == [-1, 0, 1])
        #expect(levels[0]! > levels[1]! && levels[0]! > levels[-1]!)
    }
}

enum SampleFormatCases {
    static let all: [(String, String)] = ["pcm16", "pcm24", "float32"].flatMap { format in
        ["wav", "caf", "aiff"].map { (format, $0) }
    }
}

@Suite struct LimiterTests {
    /// The running maximum agrees with a direct scan for every radius and length, edges included.
    @Test func movingMaximumMatchesADirectScan() {
        var generator = TestSignals.Generator(seed: 5)
        for count in [1, 2, 3, 7, 20, 101] {
            let values = (0..<count).map { _ in Float(generator.unit()) }
            for radius in [1, 2, 3, 10, 60] {
                let expected = values.indices.map { values[max(0, $0 - radius)...min(count - 1, $0 + radius)].max()! }
                #expect(
                    TruePeakLimiter.movingMaximum(values, radius: radius) == expected,
                    "count \(count), radius \(radius)")
            }
        }
    }
}

/// Clipping is a recording held at full scale: counted in runs of three samples or more at it, not over it.
@Suite struct ClippingTests {
    @Test func aFlatTopAtFullScaleIsClippedAndALossyOvershootIsNot() {
        let quiet: [Float] = [0.2, 0.5, 0.7]
        // 16-bit PCM clipped: 32767 / 32768, five samples in a row, and -1 three in a row.
        let pcm = quiet + [Float](repeating: 32767.0 / 32768, count: 5) + quiet + [-1, -1, -1] + quiet
        #expect(FragmentPipeline.clippedSamples([pcm]) == 8)
        // Two samples at full scale are a peak that touched it, not a clipped run.
        #expect(FragmentPipeline.clippedSamples([quiet + [1, 1] + quiet]) == 0)
        // A lossy decoder's ringing over full scale (an AAC of a recording peaking at 0.79).
        let overshoot = quiet + [0.98, 1.03, 1.07, 1.09, 1.05, 1.01, 0.97] + quiet
        #expect(FragmentPipeline.clippedSamples([overshoot]) == 0)
    }

    /// A 100 Hz tone at 48 kHz normalized to a 0 dBFS peak holds about seven samples a crest within 0.01 dB of
    /// full scale, none flat: not clipped. Scaled up by 1 dB and cut at full scale, it is.
    @Test func aSmoothCrestAtFullScaleIsNotClipped() {
        let tone = (0..<4_800).map { Float(sin(2 * Double.pi * 100 * Double($0) / 48_000)) }
        let peak = tone.map(abs).max()!
        let normalized = tone.map { $0 / peak }
        #expect(normalized.filter { abs($0) >= 0.9988 }.count > 50)
        #expect(FragmentPipeline.clippedSamples([normalized]) == 0)
        let cut = normalized.map { min(1, max(-1, $0 * 1.122)) }
        #expect(FragmentPipeline.clippedSamples([cut]) > 100)
    }
}
