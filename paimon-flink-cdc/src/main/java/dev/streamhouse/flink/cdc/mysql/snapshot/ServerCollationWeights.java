package dev.streamhouse.flink.cdc.mysql.snapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * {@link CollationWeights} from the server ({@code SELECT WEIGHT_STRING(CONVERT(? USING cs) COLLATE
 * coll AS CHAR(n))}), over a connection it gets when first needed, with the most recent weights
 * cached. Not thread-safe.
 */
public final class ServerCollationWeights implements CollationWeights {

    private static final int CACHE_SIZE = 100_000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]+");

    /** Opens or lends the connection the weights are read over. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection get() throws SQLException;
    }

    private final ConnectionSource connections;
    private final Map<Key, byte[]> cache = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, byte[]> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    public ServerCollationWeights(ConnectionSource connections) {
        this.connections = connections;
    }

    @Override
    public byte[] weight(String value, String charset, String collation, int padLength) {
        Key key = new Key(value, charset, collation, padLength);
        byte[] weight = cache.get(key);
        if (weight == null) {
            weight = query(key);
            cache.put(key, weight);
        }
        return weight;
    }

    private byte[] query(Key key) {
        if (!NAME.matcher(key.charset).matches() || !NAME.matcher(key.collation).matches()) {
            throw new IllegalArgumentException("Cannot order keys in collation '" + key.collation + "' of character set '"
                    + key.charset + "'");
        }
        String sql = "SELECT WEIGHT_STRING(CONVERT(? USING " + key.charset + ") COLLATE " + key.collation
                + (key.padLength > 0 ? " AS CHAR(" + key.padLength + ")" : "") + ")";
        try {
            Connection connection = connections.get();
            try (PreparedStatement s = connection.prepareStatement(sql)) {
                s.setString(1, key.value);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return rs.getBytes(1);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the weight of a key in collation " + key.collation
                    + " from the server: " + e.getMessage(), e);
        }
    }

    private record Key(String value, String charset, String collation, int padLength) {
        Key {
            Objects.requireNonNull(value);
        }
    }
}
