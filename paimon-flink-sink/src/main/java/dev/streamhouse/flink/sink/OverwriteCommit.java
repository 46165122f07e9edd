package dev.streamhouse.flink.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code INSERT OVERWRITE}: one OVERWRITE snapshot that replaces either a static partition spec (the
 * empty spec is the whole table) or, dynamically, exactly the partitions the job wrote.
 */
public final class OverwriteCommit implements CommitAction {
    private static final long serialVersionUID = 1L;

    /** The static spec, or null for dynamic-partition overwrite. */
    private final LinkedHashMap<String, String> staticPartition;

    private OverwriteCommit(Map<String, String> spec) {
        this.staticPartition = spec == null ? null : new LinkedHashMap<>(spec);
    }

    /** Replaces the partitions matching {@code spec} ({@code {}} = the whole table). */
    public static OverwriteCommit staticPartition(Map<String, String> spec) {
        return new OverwriteCommit(Map.copyOf(spec));
    }

    /** Replaces only the partitions that receive rows (Paimon's default dynamic-partition-overwrite). */
    public static OverwriteCommit dynamicPartitions() {
        return new OverwriteCommit(null);
    }

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        if (staticPartition == null) {
            commit.overwriteDynamicPartitions(identifier, messages);
        } else {
            commit.overwrite(identifier, staticPartition, messages);
        }
    }

    @Override
    public boolean replacesData() {
        return true;
    }

    @Override
    public String toString() {
        return staticPartition == null ? "OverwriteCommit{dynamic partitions}" : "OverwriteCommit" + staticPartition;
    }
}
