package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.commit.CommitMessage;

import java.util.List;
import java.util.Map;

/**
 * Everything one logical commit carries: its identifier (a checkpoint id, or Long.MAX_VALUE for batch),
 * an optional watermark and log offsets, and the writers' messages.
 */
public record ManifestCommittable(long identifier, Long watermark, Map<Integer, Long> logOffsets,
        List<CommitMessage> messages) {

    public ManifestCommittable {
        logOffsets = Map.copyOf(logOffsets);
        messages = List.copyOf(messages);
    }

    public static ManifestCommittable of(long identifier, List<CommitMessage> messages) {
        return new ManifestCommittable(identifier, null, Map.of(), messages);
    }
}
