package dev.streamhouse.sqlrunner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;

/** What the bundle-jar checks read: class entries of a module's build, text entries of a jar, service files. */
final class JarListings {
    private JarListings() {}

    /** The {@code .class} entries below {@code classesDir} as jar entry names; empty if it does not exist. */
    static List<String> classesOf(Path classesDir) {
        if (!Files.isDirectory(classesDir)) {
            return Collections.emptyList();
        }
        try (var files = Files.walk(classesDir)) {
            return files.filter(p -> p.toString().endsWith(".class"))
                    .map(p -> classesDir.relativize(p).toString().replace('\\', '/'))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new AssertionError("Cannot list " + classesDir, e);
        }
    }

    /** A text entry of the jar. */
    static String read(ZipFile jar, String entry) throws IOException {
        try (InputStream in = jar.getInputStream(jar.getEntry(entry))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The providers a {@code META-INF/services} file lists (comments and blank lines dropped). */
    static List<String> providers(String servicesFile) {
        List<String> providers = new ArrayList<>();
        for (String line : servicesFile.split("\n")) {
            String provider = line.replaceFirst("#.*", "").trim();
            if (!provider.isEmpty()) {
                providers.add(provider);
            }
        }
        return providers;
    }
}
