package dev.streamhouse.storage.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;

/** Schema versions by id, read once: data files name the schema they were written with. */
public final class SchemaCache {
    private final SchemaManager schemas;
    private final ConcurrentHashMap<Long, TableSchema> cache = new ConcurrentHashMap<>();

    public SchemaCache(SchemaManager schemas) {
        this.schemas = schemas;
    }

    public TableSchema schema(long id) {
        return cache.computeIfAbsent(id, i -> {
            try {
                return schemas.schema(i);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
