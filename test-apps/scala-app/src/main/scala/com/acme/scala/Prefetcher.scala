package com.acme.scala

import java.util.concurrent.ArrayBlockingQueue

/**
 * Reads batches ahead on a thread of its own into a queue of `depth` batches; `next()` takes
 * them in order and returns null after the last. The reading thread dies with whatever it meets
 * (an OutOfMemoryError among them), and then `next()` waits for ever, as a loader written this
 * way does.
 */
class Prefetcher(data: Dataset, order: Array[Int], batchSize: Int, depth: Int) {
  private val queue = new ArrayBlockingQueue[Array[Array[Byte]]](depth)
  private val last = new Array[Array[Byte]](0)
  private val reader = new Thread(() => {
    var at = 0
    while (at < order.length) {
      val n = math.min(batchSize, order.length - at)
      val batch = new Array[Array[Byte]](n)
      var k = 0
      while (k < n) {
        batch(k) = data.get(order(at + k))
        k += 1
      }
      queue.put(batch)
      at += n
    }
    queue.put(last)
  }, "prefetcher")
  reader.setDaemon(true)
  reader.start()

  /** Returns the next batch, or null after the last. */
  def next(): Array[Array[Byte]] = {
    val b = queue.take()
    if (b eq last) null else b
  }
}
