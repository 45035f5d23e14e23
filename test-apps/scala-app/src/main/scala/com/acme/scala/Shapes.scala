package com.acme.scala

import scala.collection.concurrent.TrieMap
import scala.collection.mutable

/**
 * The other mutable collections `suggest` knows, each filling a field (`Train` never runs this
 * class: it is `suggest`'s fixture): a `TrieMap` by `put` and a removal from it, a
 * `LinkedHashMap` by `update` (`m(k) = v`), a `ListBuffer` by `+=` and a `Set` by `add`.
 */
class Shapes {
  private val byId = TrieMap[Int, Array[Byte]]()
  private val ordered = mutable.LinkedHashMap[Int, Array[Byte]]()
  private val recent = mutable.ListBuffer[Array[Byte]]()
  private val distinct = mutable.Set[Array[Byte]]()

  /** Keeps `b` under `i`. */
  def putById(i: Int, b: Array[Byte]): Unit = {
    byId.put(i, b)
    ()
  }

  /** Lets sample `i` go. */
  def forget(i: Int): Unit = {
    byId.remove(i)
    ()
  }

  /** Keeps `b` under `i`, in order. */
  def putOrdered(i: Int, b: Array[Byte]): Unit = ordered(i) = b

  /** Keeps `b` among the recent ones. */
  def remember(b: Array[Byte]): Unit = {
    recent += b
    ()
  }

  /** Keeps `b` once. */
  def mark(b: Array[Byte]): Unit = {
    distinct.add(b)
    ()
  }
}
