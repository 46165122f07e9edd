package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.storage.types.DataType;

import java.util.function.UnaryOperator;

/**
 * A computed column's function applied to a concrete input column: the result type and the
 * evaluation, which turns the input's value (a Java value as {@code MySqlType} documents them, never
 * null; null for functions without input) into the result as a Java value the sync writes like a
 * source value. An evaluation throws {@link IllegalArgumentException} saying why a value has no result.
 */
record Binding(DataType type, UnaryOperator<Object> evaluation) {}
