package dev.streamhouse.e2e.flink;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * A class loader that hides Apache Paimon's Flink factories (catalog {@code paimon}, connector
 * {@code paimon}) from Flink's service discovery. This module has both Paimon's jar (the test oracle)
 * and ours on the classpath, and both register the identifier {@code paimon}; giving Flink this loader
 * as the user class loader makes {@code 'type'='paimon'} resolve to ours only. Classes still load
 * normally through the parent.
 */
public final class WithoutPaimonFactories extends ClassLoader {
    private static final String FLINK_FACTORIES = "META-INF/services/org.apache.flink.table.factories.Factory";
    private static final String PAIMON_JAR_MARKER = "/org/apache/paimon/";

    public WithoutPaimonFactories(ClassLoader parent) {
        super(parent);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        Enumeration<URL> all = super.getResources(name);
        if (!FLINK_FACTORIES.equals(name)) {
            return all;
        }
        List<URL> kept = new ArrayList<>();
        while (all.hasMoreElements()) {
            URL url = all.nextElement();
            if (!url.toString().contains(PAIMON_JAR_MARKER)) {
                kept.add(url);
            }
        }
        return Collections.enumeration(kept);
    }

    @Override
    public URL getResource(String name) {
        if (FLINK_FACTORIES.equals(name)) {
            try {
                Enumeration<URL> e = getResources(name);
                return e.hasMoreElements() ? e.nextElement() : null;
            } catch (IOException ex) {
                return null;
            }
        }
        return super.getResource(name);
    }
}
