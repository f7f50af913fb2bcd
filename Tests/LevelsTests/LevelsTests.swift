import Foundation
import Levels
import Testing

@Suite struct DecibelsTests {
    @Test func fullScaleSineRMSIsMinusThreeDecibels() {
        #expect(abs(Decibels.fromLinear(1 / 2.0.squareRoot()) - -3.0103) < 0.0001)
        #expect(Decibels.fromLinear(1) == 0)
        #expect(abs(Decibels.fromLinear(0.1) - -20) < 1e-12)
    }

    @Test func roundTripsThroughLinear() {
        for dB in stride(from: -99.0, through: 0, by: 0.5) {
            #expect(abs(Decibels.fromLinear(pow(10, dB / 20)) - dB) < 1e-9)
        }
    }

    @Test(arguments: [0.0, -0.0, -1.0, .nan, -.infinity])
    func silenceAndNonsenseClampToTheFloor(_ amplitude: Double) {
        #expect(Decibels.fromLinear(amplitude) == Decibels.floor)
    }

    @Test func gstreamerSilenceMarkersClamp() {
        #expect(Decibels.clamp(-700) == -100)   // level's digital silence
        #expect(Decibels.clamp(-350) == -100)   // level's last message at EOS
        #expect(Decibels.clamp(.nan) == -100)
        #expect(Decibels.clamp(.infinity) == 0)
        #expect(Decibels.clamp(-42.5) == -42.5)
    }
}

@Suite struct DisplayMappingTests {
    @Test func floorAndCeilingBound() {
        let mapping = DisplayMapping.standard
        #expect(mapping.fraction(-46) == 0)
        #expect(mapping.fraction(-80) == 0)
        #expect(mapping.fraction(.nan) == 0)
        #expect(mapping.fraction(0) == 1)
        #expect(mapping.fraction(6) == 1)
        #expect(mapping.fraction(-23) == 0.5)
    }

    @Test func isMonotonic() {
        let fractions = DisplayMapping.standard.fractions(Array(stride(from: -60.0, through: 0, by: 1)))
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
    }
}

@Suite struct RebinningTests {
    @Test func keepsTheMaximumOfEachBin() {
        #expect(rebinMaximum([1, 5, 2, 2, 9, 0, 3, 3], into: 4) == [5, 2, 9, 3])
        #expect(rebinMaximum([1, 5, 2, 2, 9, 0, 3, 3], into: 2) == [5, 9])
        #expect(rebinMaximum([1, 5, 2, 2, 9, 0, 3, 3], into: 1) == [9])
    }

    @Test func aSinglePeakSurvivesAnyBinCount() {
        var values = [Double](repeating: 0, count: 12_000)
        values[7_777] = 1
        for count in [1, 7, 100, 599, 600, 1_000, 11_999] {
            let bins = rebinMaximum(values, into: count)
            #expect(bins.count == count)
            #expect(bins.filter { $0 == 1 }.count == 1, "count \(count)")
        }
    }

    @Test func stretchesFewValuesOverManyBins() {
        #expect(rebinMaximum([1, 2], into: 4) == [1, 1, 2, 2])
        #expect(rebinMaximum([7], into: 3) == [7, 7, 7])
    }

    @Test func edgeCases() {
        #expect(rebinMaximum([], into: 10) == [])
        #expect(rebinMaximum([1, 2, 3], into: 0) == [])
        #expect(rebinMaximum([1, 2, 3], into: -5) == [])
        let withNaN = rebinMaximum([.nan, 2, .nan, .nan], into: 2)
        #expect(withNaN[0] == 2)
        #expect(withNaN[1].isNaN)
    }
}

@Suite struct LevelEncodingTests {
    @Test func everyWrittenByteRoundTripsExactly() {
        for byte in UInt8(0)...UInt8(200) {
            #expect(LevelEncoding.encode(LevelEncoding.decode(byte)) == byte)
        }
        for byte in UInt8(201)...UInt8.max {
            #expect(LevelEncoding.decode(byte) == Decibels.floor)
        }
    }

    @Test func valuesLandWithinAQuarterDecibel() {
        for dB in stride(from: -100, through: 0, by: 0.01) {
            #expect(abs(LevelEncoding.decode(LevelEncoding.encode(dB)) - dB) <= 0.25 + 1e-9)
        }
    }

    @Test func outOfRangeValuesClamp() {
        #expect(LevelEncoding.encode(6) == 0)
        #expect(LevelEncoding.encode(-200) == 200)
        #expect(LevelEncoding.encode(.nan) == 200)  // the -100 dB floor
    }

    @Test func tracksRoundTripThroughABlob() throws {
        let track = LevelTrack(rms: [-3, -20.5, -100, -45], peak: [0, -12, -100, -30.5])
        let blob = LevelEncoding.encode(track)
        #expect(blob.count == 8)
        let decoded = try #require(LevelEncoding.decodeTrack(blob, intervalMilliseconds: 50))
        #expect(decoded == track)
        #expect(LevelEncoding.decodeTrack(blob.dropLast(), intervalMilliseconds: 50) == nil)
    }
}

@Suite struct LevelTrackTests {
    @Test func clampsWhatItIsGiven() {
        var track = LevelTrack()
        track.append(rms: -700, peak: .nan)
        track.append(rms: -10, peak: -3)
        #expect(track.rms == [-100, -10])
        #expect(track.peak == [-100, -3])
        #expect(Double(track.count * track.intervalMilliseconds) / 1000 == 0.1, "two intervals of 50 ms")
    }
}

@Suite struct LevelMeterTests {
    private func sine(amplitude: Double, frequency: Double, rate: Int, seconds: Double) -> [Float] {
        (0..<Int(Double(rate) * seconds)).map {
            Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate)))
        }
    }

    @Test(arguments: [1.0, 0.5, 0.1, 0.01])
    func sineRMSIsAmplitudeOverRootTwo(_ amplitude: Double) {
        var meter = LevelMeter(sampleRate: 16_000)
        meter.add(sine(amplitude: amplitude, frequency: 1_000, rate: 16_000, seconds: 1))
        let track = meter.finish()
        #expect(track.count == 20)
        let expected = 20 * log10(amplitude / 2.0.squareRoot())
        for rms in track.rms { #expect(abs(rms - expected) < 0.05) }
        for peak in track.peak { #expect(abs(peak - 20 * log10(amplitude)) < 0.1) }
    }

    @Test func partialLastIntervalCountsAndDurationIsExact() {
        var meter = LevelMeter(sampleRate: 48_000)
        meter.add([Float](repeating: 0.25, count: 48_000 + 1_200))  // 1.025 s
        #expect(meter.seconds == 1.025)
        let track = meter.finish()
        #expect(track.count == 21)
        #expect(abs(track.rms.last! - 20 * log10(0.25)) < 1e-9)
    }

    @Test func int16AndFloatAgree() {
        let floats: [Float] = sine(amplitude: 0.5, frequency: 440, rate: 8_000, seconds: 0.5)
        let ints = floats.map { Int16(($0 * 32768).rounded()) }
        var a = LevelMeter(sampleRate: 8_000)
        var b = LevelMeter(sampleRate: 8_000)
        a.add(floats)
        ints.withUnsafeBufferPointer { b.add(int16: $0) }
        let ta = a.finish(), tb = b.finish()
        #expect(ta.count == tb.count)
        for (x, y) in zip(ta.rms, tb.rms) { #expect(abs(x - y) < 0.01) }
    }

    @Test(arguments: [22_050, 11_025, 44_100, 16_000])
    func intervalsDoNotDriftAtAnyRate(_ rate: Int) {
        var meter = LevelMeter(sampleRate: rate)
        meter.add([Float](repeating: 0.1, count: rate * 10))  // 10 s
        #expect(meter.finish().count == 200)
    }

    @Test func silenceIsTheFloor() {
        var meter = LevelMeter(sampleRate: 8_000)
        meter.add([Float](repeating: 0, count: 800))
        #expect(meter.finish().rms == [-100, -100])
    }
}
