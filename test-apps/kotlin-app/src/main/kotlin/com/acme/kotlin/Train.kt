package com.acme.kotlin

/**
 * Trains over a shuffled order each epoch: `--samples=N --sample-bytes=B --epochs=E --batch=K
 * --depth=D`. Prints one line an epoch and `TRAINING COMPLETE samples_delivered=... checksum=...`,
 * a checksum of the samples delivered that depends only on which ones were.
 */
fun main(args: Array<String>) {
    val opts = args.associate { a -> a.substring(2, a.indexOf('=')) to a.substring(a.indexOf('=') + 1) }
    val samples = (opts["samples"] ?: "200").toInt()
    val sampleBytes = (opts["sample-bytes"] ?: "1048576").toInt()
    val epochs = (opts["epochs"] ?: "3").toInt()
    val batch = (opts["batch"] ?: "4").toInt()
    val depth = (opts["depth"] ?: "4").toInt()
    val data = Dataset(samples, sampleBytes)
    val random = java.util.Random(42)
    var checksum = 0L
    var delivered = 0L
    for (epoch in 1..epochs) {
        val order = IntArray(samples) { it }
        for (i in order.size - 1 downTo 1) {
            val j = random.nextInt(i + 1)
            val t = order[i]; order[i] = order[j]; order[j] = t
        }
        val loader = Prefetcher(data, order, batch, depth)
        var n = 0
        var pos = 0
        var b = loader.next()
        while (b != null) {
            for (s in b) {
                checksum += Dataset.contentHash(order[pos], s)
                pos++
            }
            n += b.size
            b = loader.next()
        }
        delivered += n
        println("epoch=$epoch delivered=$n cached=${data.cached}")
    }
    println("TRAINING COMPLETE samples_delivered=$delivered checksum=${java.lang.Long.toHexString(checksum)}")
}
