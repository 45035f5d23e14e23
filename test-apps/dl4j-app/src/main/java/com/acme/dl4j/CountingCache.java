package com.acme.dl4j;

import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.cache.InMemoryDataSetCache;

/** ND4J's in-memory DataSet cache, counting the DataSets it served (a {@code get} that found one). */
final class CountingCache extends InMemoryDataSetCache {
    private long served;

    @Override
    public DataSet get(String key) {
        DataSet ds = super.get(key);
        if (ds != null) {
            synchronized (this) {
                served++;
            }
        }
        return ds;
    }

    /** Returns the DataSets served so far. */
    synchronized long served() {
        return served;
    }
}
