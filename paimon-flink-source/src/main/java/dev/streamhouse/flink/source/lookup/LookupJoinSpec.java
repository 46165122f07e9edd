package dev.streamhouse.flink.source.lookup;

import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.table.Table;

import java.io.Serializable;

/**
 * What one lookup join reads of its table, shipped to the join tasks.
 *
 * @param table the joined table (with the statement's OPTIONS hints)
 * @param outputProjection table positions of the columns the join gets, in the order it gets them
 * @param joinKeys table positions of the join-key columns, in the order lookup keys give them
 * @param filter the pushed-down filter over the table row, or null
 */
public record LookupJoinSpec(Table table, int[] outputProjection, int[] joinKeys, Predicate filter)
        implements Serializable {}
