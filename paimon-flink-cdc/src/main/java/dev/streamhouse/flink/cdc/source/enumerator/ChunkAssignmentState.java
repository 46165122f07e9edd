package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import java.util.List;
import java.util.Map;

/**
 * The chunked snapshot's part of the enumerator checkpoint: the captured tables as read at the
 * start, the tables not split into chunks yet, the chunks not assigned, the chunks assigned per
 * reader (subtask), the chunks emitted (with their high watermarks), and whether the binlog split
 * was handed out.
 */
public record ChunkAssignmentState(List<CapturedTable> tables, List<CdcTableId> tablesToSplit,
        List<MySqlChunkSplit> unassigned, Map<Integer, List<MySqlChunkSplit>> assigned,
        List<MySqlChunkSplit> finished, boolean binlogAssigned) {}
