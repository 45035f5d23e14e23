package com.acme.dl4j;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.cache.DataSetCache;

/**
 * A DataSetCache that keeps the DataSets themselves (no serialization, unlike ND4J's
 * InMemoryDataSetCache): what a user writes to skip the copy into bytes and back.
 */
final class RetainingCache implements DataSetCache {
    private final Map<String, DataSet> sets = new HashMap<>();
    private final Set<String> complete = new HashSet<>();

    @Override
    public synchronized boolean isComplete(String namespace) {
        return complete.contains(namespace);
    }

    @Override
    public synchronized void setComplete(String namespace, boolean value) {
        if (value) {
            complete.add(namespace);
        } else {
            complete.remove(namespace);
        }
    }

    @Override
    public synchronized DataSet get(String key) {
        return sets.get(key);
    }

    @Override
    public synchronized void put(String key, DataSet dataSet) {
        sets.put(key, dataSet);
    }

    @Override
    public synchronized boolean contains(String key) {
        return sets.containsKey(key);
    }
}
