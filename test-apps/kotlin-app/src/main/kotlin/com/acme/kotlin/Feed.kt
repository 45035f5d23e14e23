package com.acme.kotlin

import java.util.concurrent.ArrayBlockingQueue

/**
 * A queue drained through a property's getter (`Train` never runs this class: it is `suggest`'s
 * fixture for a field that its class itself reads through a getter, here a custom one).
 */
class Feed(depth: Int) {
    private val slots = ArrayBlockingQueue<ByteArray>(depth)

    /** The queue, read through its getter even inside the class. */
    val queue: ArrayBlockingQueue<ByteArray>
        get() = slots

    /** Returns the next batch. */
    fun next(): ByteArray = queue.take()
}
