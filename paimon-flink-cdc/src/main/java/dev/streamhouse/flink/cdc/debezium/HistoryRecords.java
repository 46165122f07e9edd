package dev.streamhouse.flink.cdc.debezium;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The schema history of one running connector: Debezium's history records as JSON documents, in
 * the order it stored them. Restored from and written to the split state; Debezium appends from its
 * own thread, checkpoints copy from the reader's, so access is synchronized. A record stored again
 * (the connector re-reads the binlog after a restore) is kept once.
 */
public final class HistoryRecords {

    private final List<String> records = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();

    public HistoryRecords(List<String> restored) {
        for (String record : restored) {
            add(record);
        }
    }

    public synchronized void add(String record) {
        if (seen.add(record)) {
            records.add(record);
        }
    }

    public synchronized List<String> snapshot() {
        return List.copyOf(records);
    }

    public synchronized boolean isEmpty() {
        return records.isEmpty();
    }
}
