package dev.streamhouse.bench;

/**
 * Creates one implementation's class of a store API interface by name, so that a run's classpath needs
 * only its own store: for interface {@code X}, {@code OursX} (streamhouse's storage API) or {@code
 * PaimonX} (Apache Paimon's, compiled from src/paimon/java onto Paimon's classpath only).
 */
final class StoreApis {
    private StoreApis() {}

    static <T> T create(Class<T> api, String impl, String workload) throws ReflectiveOperationException {
        String prefix;
        switch (impl) {
            case "ours":
                prefix = "Ours";
                break;
            case "paimon":
                prefix = "Paimon";
                break;
            default:
                throw new IllegalArgumentException("Cannot run " + workload + " as '" + impl + "'");
        }
        String name = api.getPackageName() + "." + prefix + api.getSimpleName();
        return api.cast(Class.forName(name).getDeclaredConstructor().newInstance());
    }
}
