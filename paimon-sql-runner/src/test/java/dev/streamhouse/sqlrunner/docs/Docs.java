package dev.streamhouse.sqlrunner.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Where the documentation lives: the repository's README.md and every Markdown file under docs/. */
final class Docs {
    /** The repository's root (the surefire configuration sets it; {@code ..} from a module). */
    static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    static final Path DOCS = ROOT.resolve("docs");
    static final Path README = ROOT.resolve("README.md");
    /** The manual's index, which links every page. */
    static final Path INDEX = DOCS.resolve("README.md");

    private Docs() {}

    /** README.md and every page under docs/, sorted. */
    static List<MarkdownPage> pages() {
        List<MarkdownPage> pages = new ArrayList<>();
        pages.add(read(README));
        for (Path file : docsFiles()) {
            pages.add(read(file));
        }
        return pages;
    }

    /** The Markdown files under docs/, sorted. */
    static List<Path> docsFiles() {
        try (Stream<Path> files = Files.walk(DOCS)) {
            return files.filter(f -> f.toString().endsWith(".md")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MarkdownPage read(Path file) {
        try {
            return MarkdownPage.read(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page's path relative to the repository root, for messages. */
    static String name(MarkdownPage page) {
        return ROOT.relativize(page.file()).toString();
    }
}
