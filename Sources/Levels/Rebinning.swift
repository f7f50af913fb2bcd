/// Reduces a level array to `count` bins for drawing, keeping each bin's
/// maximum: point sampling would drop the peaks that make speech readable.
///
/// Bin `i` covers source indices [i·n/count, (i+1)·n/count), so every value
/// falls in exactly one bin. With fewer values than bins, each value fills the
/// bins that cover it (the shape stretches rather than leaving gaps).
/// NaN values are passed over (a bin of nothing but NaN stays NaN); an empty
/// input or a count ≤ 0 gives [].
public func rebinMaximum(_ values: [Double], into count: Int) -> [Double] {
    guard count > 0, !values.isEmpty else { return [] }
    let n = values.count
    var bins = [Double](repeating: 0, count: count)
    for bin in 0..<count {
        let start = bin * n / count
        let end = max(start + 1, (bin + 1) * n / count)
        var best = Double.nan
        for value in values[start..<end] where !value.isNaN && (best.isNaN || value > best) {
            best = value
        }
        bins[bin] = best
    }
    return bins
}
