package com.acme.kotlin

import java.util.concurrent.ArrayBlockingQueue

/**
 * Reads batches ahead on a thread of its own into a queue of [depth] batches; [next] takes them in
 * order and returns null after the last. The reading thread dies with whatever it meets (an
 * OutOfMemoryError among them), and then [next] waits for ever, as a loader written this way does.
 */
class Prefetcher(data: Dataset, order: IntArray, batchSize: Int, depth: Int) {
    private val queue = ArrayBlockingQueue<Array<ByteArray>>(depth)
    private val last = arrayOf<ByteArray>()

    init {
        val reader = Thread({
            var at = 0
            while (at < order.size) {
                val n = minOf(batchSize, order.size - at)
                val batch = Array(n) { k -> data.get(order[at + k]) }
                queue.put(batch)
                at += n
            }
            queue.put(last)
        }, "prefetcher")
        reader.isDaemon = true
        reader.start()
    }

    /** Returns the next batch, or null after the last. */
    fun next(): Array<ByteArray>? {
        val b = queue.take()
        return if (b === last) null else b
    }
}
