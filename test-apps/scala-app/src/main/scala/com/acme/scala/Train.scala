package com.acme.scala

/**
 * Trains over a shuffled order each epoch: `--samples=N --sample-bytes=B --epochs=E --batch=K
 * --depth=D`. Prints one line an epoch and `TRAINING COMPLETE samples_delivered=... checksum=...`,
 * a checksum of the samples delivered that depends only on which ones were.
 */
object Train {
  def main(args: Array[String]): Unit = {
    val opts = args.iterator.map { a =>
      val eq = a.indexOf('=')
      a.substring(2, eq) -> a.substring(eq + 1)
    }.toMap
    val samples = opts.getOrElse("samples", "200").toInt
    val sampleBytes = opts.getOrElse("sample-bytes", "1048576").toInt
    val epochs = opts.getOrElse("epochs", "3").toInt
    val batch = opts.getOrElse("batch", "4").toInt
    val depth = opts.getOrElse("depth", "4").toInt
    val data = new Dataset(samples, sampleBytes)
    val random = new java.util.Random(42)
    var checksum = 0L
    var delivered = 0L
    for (epoch <- 1 to epochs) {
      val order = Array.range(0, samples)
      var i = order.length - 1
      while (i > 0) {
        val j = random.nextInt(i + 1)
        val t = order(i); order(i) = order(j); order(j) = t
        i -= 1
      }
      val loader = new Prefetcher(data, order, batch, depth)
      var n = 0
      var b = loader.next()
      var pos = 0
      while (b != null) {
        var k = 0
        while (k < b.length) {
          checksum += Dataset.contentHash(order(pos), b(k))
          pos += 1
          k += 1
        }
        n += b.length
        b = loader.next()
      }
      delivered += n
      println(s"epoch=$epoch delivered=$n cached=${data.cached}")
    }
    println(s"TRAINING COMPLETE samples_delivered=$delivered checksum=${java.lang.Long.toHexString(checksum)}")
  }
}
