package org.flodl.budget.benchmarks;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One hundred cache-admit sites in one class for {@link SitesScaleBenchmark}: {@code putN(key,
 * value)} retains argument 1 and {@code evictN(key)} lets it go, N from 0 to 99, each a plain
 * {@code ConcurrentHashMap} without the agent. The benchmark calls {@code put0} and {@code evict0}
 * only; the sites file names 1, 10 or 100 of the pairs.
 */
public final class BenchSites {
  static final int COUNT = 100;

  private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();

  /** Returns the sites file naming the first {@code n} put/evict pairs. */
  static String sites(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append("site.s")
          .append(i)
          .append(".kind = cache-admit\n")
          .append("site.s")
          .append(i)
          .append(".method = org.flodl.budget.benchmarks.BenchSites#put")
          .append(i)
          .append("(java.lang.Object,java.lang.Object)\n")
          .append("site.s")
          .append(i)
          .append(".value = 1\n")
          .append("site.s")
          .append(i)
          .append(".release = org.flodl.budget.benchmarks.BenchSites#evict")
          .append(i)
          .append("\n");
    }
    return b.toString();
  }

  public Object put0(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict0(Object key) {
    return entries.remove(key);
  }

  public Object put1(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict1(Object key) {
    return entries.remove(key);
  }

  public Object put2(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict2(Object key) {
    return entries.remove(key);
  }

  public Object put3(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict3(Object key) {
    return entries.remove(key);
  }

  public Object put4(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict4(Object key) {
    return entries.remove(key);
  }

  public Object put5(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict5(Object key) {
    return entries.remove(key);
  }

  public Object put6(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict6(Object key) {
    return entries.remove(key);
  }

  public Object put7(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict7(Object key) {
    return entries.remove(key);
  }

  public Object put8(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict8(Object key) {
    return entries.remove(key);
  }

  public Object put9(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict9(Object key) {
    return entries.remove(key);
  }

  public Object put10(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict10(Object key) {
    return entries.remove(key);
  }

  public Object put11(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict11(Object key) {
    return entries.remove(key);
  }

  public Object put12(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict12(Object key) {
    return entries.remove(key);
  }

  public Object put13(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict13(Object key) {
    return entries.remove(key);
  }

  public Object put14(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict14(Object key) {
    return entries.remove(key);
  }

  public Object put15(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict15(Object key) {
    return entries.remove(key);
  }

  public Object put16(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict16(Object key) {
    return entries.remove(key);
  }

  public Object put17(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict17(Object key) {
    return entries.remove(key);
  }

  public Object put18(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict18(Object key) {
    return entries.remove(key);
  }

  public Object put19(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict19(Object key) {
    return entries.remove(key);
  }

  public Object put20(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict20(Object key) {
    return entries.remove(key);
  }

  public Object put21(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict21(Object key) {
    return entries.remove(key);
  }

  public Object put22(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict22(Object key) {
    return entries.remove(key);
  }

  public Object put23(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict23(Object key) {
    return entries.remove(key);
  }

  public Object put24(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict24(Object key) {
    return entries.remove(key);
  }

  public Object put25(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict25(Object key) {
    return entries.remove(key);
  }

  public Object put26(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict26(Object key) {
    return entries.remove(key);
  }

  public Object put27(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict27(Object key) {
    return entries.remove(key);
  }

  public Object put28(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict28(Object key) {
    return entries.remove(key);
  }

  public Object put29(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict29(Object key) {
    return entries.remove(key);
  }

  public Object put30(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict30(Object key) {
    return entries.remove(key);
  }

  public Object put31(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict31(Object key) {
    return entries.remove(key);
  }

  public Object put32(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict32(Object key) {
    return entries.remove(key);
  }

  public Object put33(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict33(Object key) {
    return entries.remove(key);
  }

  public Object put34(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict34(Object key) {
    return entries.remove(key);
  }

  public Object put35(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict35(Object key) {
    return entries.remove(key);
  }

  public Object put36(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict36(Object key) {
    return entries.remove(key);
  }

  public Object put37(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict37(Object key) {
    return entries.remove(key);
  }

  public Object put38(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict38(Object key) {
    return entries.remove(key);
  }

  public Object put39(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict39(Object key) {
    return entries.remove(key);
  }

  public Object put40(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict40(Object key) {
    return entries.remove(key);
  }

  public Object put41(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict41(Object key) {
    return entries.remove(key);
  }

  public Object put42(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict42(Object key) {
    return entries.remove(key);
  }

  public Object put43(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict43(Object key) {
    return entries.remove(key);
  }

  public Object put44(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict44(Object key) {
    return entries.remove(key);
  }

  public Object put45(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict45(Object key) {
    return entries.remove(key);
  }

  public Object put46(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict46(Object key) {
    return entries.remove(key);
  }

  public Object put47(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict47(Object key) {
    return entries.remove(key);
  }

  public Object put48(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict48(Object key) {
    return entries.remove(key);
  }

  public Object put49(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict49(Object key) {
    return entries.remove(key);
  }

  public Object put50(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict50(Object key) {
    return entries.remove(key);
  }

  public Object put51(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict51(Object key) {
    return entries.remove(key);
  }

  public Object put52(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict52(Object key) {
    return entries.remove(key);
  }

  public Object put53(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict53(Object key) {
    return entries.remove(key);
  }

  public Object put54(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict54(Object key) {
    return entries.remove(key);
  }

  public Object put55(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict55(Object key) {
    return entries.remove(key);
  }

  public Object put56(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict56(Object key) {
    return entries.remove(key);
  }

  public Object put57(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict57(Object key) {
    return entries.remove(key);
  }

  public Object put58(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict58(Object key) {
    return entries.remove(key);
  }

  public Object put59(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict59(Object key) {
    return entries.remove(key);
  }

  public Object put60(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict60(Object key) {
    return entries.remove(key);
  }

  public Object put61(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict61(Object key) {
    return entries.remove(key);
  }

  public Object put62(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict62(Object key) {
    return entries.remove(key);
  }

  public Object put63(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict63(Object key) {
    return entries.remove(key);
  }

  public Object put64(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict64(Object key) {
    return entries.remove(key);
  }

  public Object put65(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict65(Object key) {
    return entries.remove(key);
  }

  public Object put66(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict66(Object key) {
    return entries.remove(key);
  }

  public Object put67(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict67(Object key) {
    return entries.remove(key);
  }

  public Object put68(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict68(Object key) {
    return entries.remove(key);
  }

  public Object put69(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict69(Object key) {
    return entries.remove(key);
  }

  public Object put70(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict70(Object key) {
    return entries.remove(key);
  }

  public Object put71(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict71(Object key) {
    return entries.remove(key);
  }

  public Object put72(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict72(Object key) {
    return entries.remove(key);
  }

  public Object put73(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict73(Object key) {
    return entries.remove(key);
  }

  public Object put74(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict74(Object key) {
    return entries.remove(key);
  }

  public Object put75(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict75(Object key) {
    return entries.remove(key);
  }

  public Object put76(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict76(Object key) {
    return entries.remove(key);
  }

  public Object put77(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict77(Object key) {
    return entries.remove(key);
  }

  public Object put78(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict78(Object key) {
    return entries.remove(key);
  }

  public Object put79(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict79(Object key) {
    return entries.remove(key);
  }

  public Object put80(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict80(Object key) {
    return entries.remove(key);
  }

  public Object put81(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict81(Object key) {
    return entries.remove(key);
  }

  public Object put82(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict82(Object key) {
    return entries.remove(key);
  }

  public Object put83(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict83(Object key) {
    return entries.remove(key);
  }

  public Object put84(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict84(Object key) {
    return entries.remove(key);
  }

  public Object put85(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict85(Object key) {
    return entries.remove(key);
  }

  public Object put86(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict86(Object key) {
    return entries.remove(key);
  }

  public Object put87(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict87(Object key) {
    return entries.remove(key);
  }

  public Object put88(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict88(Object key) {
    return entries.remove(key);
  }

  public Object put89(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict89(Object key) {
    return entries.remove(key);
  }

  public Object put90(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict90(Object key) {
    return entries.remove(key);
  }

  public Object put91(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict91(Object key) {
    return entries.remove(key);
  }

  public Object put92(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict92(Object key) {
    return entries.remove(key);
  }

  public Object put93(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict93(Object key) {
    return entries.remove(key);
  }

  public Object put94(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict94(Object key) {
    return entries.remove(key);
  }

  public Object put95(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict95(Object key) {
    return entries.remove(key);
  }

  public Object put96(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict96(Object key) {
    return entries.remove(key);
  }

  public Object put97(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict97(Object key) {
    return entries.remove(key);
  }

  public Object put98(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict98(Object key) {
    return entries.remove(key);
  }

  public Object put99(Object key, Object value) {
    return entries.put(key, value);
  }

  public Object evict99(Object key) {
    return entries.remove(key);
  }
}
