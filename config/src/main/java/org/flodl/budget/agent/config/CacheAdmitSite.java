package org.flodl.budget.agent.config;

import java.util.List;
import java.util.Objects;

/**
 * A {@code kind = cache-admit} block: the value at argument {@code value} (or the value the call
 * returns, {@link SiteSpec#RETURN}) is priced and admitted or declined; {@code release} hands back
 * what its argument or return value retained; {@code decline} is called on the same receiver, with
 * the arguments {@code declineArgs}, when a value is declined (a returned value is evicted, a
 * skipped put removes an older value), and {@code answer} says what the skipped call returns from
 * it; {@code refusesNulls}: the library refuses null keys and values, so a skipped call with one
 * throws {@code NullPointerException} as the library would. {@code adapter} names a framework whose
 * iterator the agent makes read a declined value again from its source ({@code dl4j}), or is null.
 * {@code key} is the argument that is the entry's key (-1: none), so that a cache which stores a
 * copy of the value has its charge held by the entry, not by the application's object. {@code
 * keepViews} ({@code views = keep}): a view that pins over twice what it addresses is kept as it is
 * and charged its whole storage, never copied (an application that writes through it).
 */
public record CacheAdmitSite(
    String block,
    String name,
    MethodRef method,
    Scope in,
    int value,
    MethodRef release,
    MethodRef decline,
    List<Integer> declineArgs,
    DeclineAnswer answer,
    boolean refusesNulls,
    int key,
    String adapter,
    boolean stager,
    boolean keepViews,
    String origin)
    implements SiteSpec {

  public CacheAdmitSite {
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(method, "method");
    declineArgs = declineArgs == null ? List.of(0) : List.copyOf(declineArgs);
    answer = answer == null ? DeclineAnswer.EVICTED : answer;
  }

  /** Returns whether the priced value is the call's return value. */
  public boolean returned() {
    return value == RETURN;
  }

  @Override
  public String kind() {
    return "cache-admit";
  }
}
