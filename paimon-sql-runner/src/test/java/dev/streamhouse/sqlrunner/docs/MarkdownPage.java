package dev.streamhouse.sqlrunner.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown file of the documentation, read the way GitHub renders it, as far as the docs tests
 * need: headings with their anchors, links, bare URLs, and fenced code blocks with the marker comment
 * on the line before each fence ({@code <!-- runnable -->}, {@code <!-- result -->},
 * {@code <!-- from: path -->}). Text inside code blocks and inline code spans holds no links.
 */
public final class MarkdownPage {
    /** Marks the next {@code sql} block as executed by {@code DocsExamplesITCase}. */
    public static final String RUNNABLE = "runnable";
    /** Marks the next block as output the preceding runnable blocks must print. */
    public static final String RESULT = "result";
    /** {@code <!-- from: path -->}: the next block's lines appear, in order, in that repository file. */
    public static final String FROM = "from:";

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern MARKER = Pattern.compile("^<!--\\s*(.*?)\\s*-->$");
    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");
    private static final Pattern LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern AUTOLINK = Pattern.compile("<(https?://[^>\\s]+)>");
    private static final Pattern BARE_URL = Pattern.compile("(?<![(<\\w])(https?://[^\\s)>\\]`]+)");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    private static final Pattern MARKDOWN_LINK_TEXT = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

    /** A heading: its level (1 for {@code #}), its text as written and its GitHub anchor. */
    public record Heading(int level, String text, String anchor, int line) {
        /** The text without inline-code backticks, e.g. {@code $snapshots} for {@code `$snapshots`}. */
        public String plainText() {
            return text.replace("`", "").trim();
        }
    }

    /** A link target as written ({@code path#anchor}, {@code #anchor} or a URL) and its line. */
    public record Link(String target, int line) {}

    /** A fenced code block: info string ({@code sql}, {@code text}, ...), marker (or null), body, line. */
    public record CodeBlock(String info, String marker, String body, int line) {}

    private final Path file;
    private final List<String> lines;
    private final List<Heading> headings = new ArrayList<>();
    private final Set<String> anchors = new LinkedHashSet<>();
    private final List<Link> links = new ArrayList<>();
    private final List<CodeBlock> blocks = new ArrayList<>();

    private MarkdownPage(Path file, List<String> lines) {
        this.file = file;
        this.lines = lines;
        parse();
    }

    public static MarkdownPage read(Path file) throws IOException {
        return new MarkdownPage(file, Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    public Path file() {
        return file;
    }

    public List<String> lines() {
        return lines;
    }

    public List<Heading> headings() {
        return headings;
    }

    /** Anchors a link may point at: every heading's, and {@code <a name|id="...">}. */
    public Set<String> anchors() {
        return anchors;
    }

    public List<Link> links() {
        return links;
    }

    public List<CodeBlock> codeBlocks() {
        return blocks;
    }

    /** The code blocks whose marker is {@code marker} (or starts with it, for {@code from:}). */
    public List<CodeBlock> blocksMarked(String marker) {
        return blocks.stream().filter(b -> b.marker() != null && b.marker().startsWith(marker)).toList();
    }

    /** The lines after {@code heading} up to the next heading of the same or a higher level. */
    public List<String> sectionBody(Heading heading) {
        int end = lines.size();
        for (Heading h : headings) {
            if (h.line() > heading.line() && h.level() <= heading.level()) {
                end = h.line() - 1;
                break;
            }
        }
        return lines.subList(heading.line(), end);
    }

    private void parse() {
        Map<String, Integer> slugCounts = new HashMap<>();
        String fence = null;
        String fenceInfo = null;
        String fenceMarker = null;
        int fenceLine = 0;
        int fenceIndent = 0;
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String trimmed = line.trim();
            if (fence != null) {
                if (trimmed.startsWith(fence) && trimmed.substring(fence.length()).isBlank()) {
                    blocks.add(new CodeBlock(fenceInfo, fenceMarker, body.toString(), fenceLine));
                    fence = null;
                } else {
                    body.append(unindent(line, fenceIndent)).append('\n');
                }
                continue;
            }
            if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                fence = trimmed.substring(0, trimmed.startsWith("```") ? countLeading(trimmed, '`')
                        : countLeading(trimmed, '~'));
                fenceInfo = trimmed.substring(fence.length()).trim().toLowerCase(Locale.ROOT);
                fenceMarker = markerBefore(i);
                fenceLine = i + 1;
                fenceIndent = countLeading(line, ' ');
                body.setLength(0);
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String text = heading.group(2);
                String slug = slug(text);
                int seen = slugCounts.merge(slug, 1, Integer::sum) - 1;
                String anchor = seen == 0 ? slug : slug + "-" + seen;
                headings.add(new Heading(heading.group(1).length(), text, anchor, i + 1));
                anchors.add(anchor);
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
            String prose = INLINE_CODE.matcher(line).replaceAll("");
            for (Pattern p : List.of(LINK, AUTOLINK)) {
                Matcher m = p.matcher(prose);
                while (m.find()) {
                    links.add(new Link(m.group(1), i + 1));
                }
            }
            Matcher bare = BARE_URL.matcher(LINK.matcher(AUTOLINK.matcher(prose).replaceAll("")).replaceAll("]"));
            while (bare.find()) {
                links.add(new Link(bare.group(1).replaceAll("[.,;:]+$", ""), i + 1));
            }
        }
        if (fence != null) {
            throw new IllegalStateException(file + ":" + fenceLine + ": code block is never closed");
        }
    }

    private String markerBefore(int fenceIndex) {
        if (fenceIndex == 0) {
            return null;
        }
        Matcher m = MARKER.matcher(lines.get(fenceIndex - 1).trim());
        return m.matches() ? m.group(1) : null;
    }

    /** A code line of a fence indented by {@code indent} spaces (in a list item), as rendered. */
    private static String unindent(String line, int indent) {
        int strip = Math.min(indent, countLeading(line, ' '));
        return line.substring(strip);
    }

    private static int countLeading(String s, char c) {
        int n = 0;
        while (n < s.length() && s.charAt(n) == c) {
            n++;
        }
        return n;
    }

    /**
     * GitHub's anchor for a heading: the rendered text (link texts kept, inline code without its
     * backticks), lower case, every character but letters, digits, spaces, {@code -} and {@code _}
     * dropped, spaces turned into {@code -}.
     */
    static String slug(String headingText) {
        String text = MARKDOWN_LINK_TEXT.matcher(headingText).replaceAll("$1").toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }
}
