import AudioPipeline

/// The tests' random inputs: the pipeline's SplitMix64, the same for the same seed on every run, so a failure
/// can be replayed.
public typealias SeededRandom = SplitMix64
