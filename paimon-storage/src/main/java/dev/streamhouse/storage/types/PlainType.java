package dev.streamhouse.storage.types;

/**
 * A type without parameters: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DATE and VARIANT.
 */
public final class PlainType extends DataType {
    private static final long serialVersionUID = 1L;

    public PlainType(boolean nullable, DataTypeRoot root) {
        super(nullable, root);
        switch (root) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
            case DATE:
            case VARIANT:
                break;
            default:
                throw new IllegalArgumentException("Not a parameterless type root: " + root);
        }
    }

    @Override
    public DataType copy(boolean nullable) {
        return new PlainType(nullable, root());
    }

    @Override
    protected String sqlWithoutNullability() {
        switch (root()) {
            case INTEGER:
                return "INT";
            default:
                return root().name();
        }
    }
}
