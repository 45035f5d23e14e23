package com.acme.kotlin

/**
 * A dataset that decodes each sample once and memoizes it: an unbounded cache of every sample it
 * was ever asked for, in a field. Samples depend only on their id.
 */
class Dataset(val size: Int, private val sampleBytes: Int) {
    private val cache = HashMap<Int, ByteArray>()

    /** Returns sample [i], decoded on its first request. */
    fun get(i: Int): ByteArray = cache.getOrPut(i) { decode(i) }

    /** How many samples the cache holds. */
    val cached: Int
        get() = cache.size

    private fun decode(i: Int): ByteArray {
        val b = ByteArray(sampleBytes)
        var j = 0
        while (j < b.size) {
            b[j] = ((i * 31 + j / 4096) and 0xff).toByte()
            j += 4096
        }
        return b
    }

    companion object {
        /** Returns a hash of sample [i]'s content as the dataset makes it. */
        @JvmStatic
        fun contentHash(i: Int, b: ByteArray): Long {
            var h = 1125899906842597L + i
            var j = 0
            while (j < b.size) {
                h = 31 * h + b[j]
                j += 4096
            }
            return h
        }
    }
}
