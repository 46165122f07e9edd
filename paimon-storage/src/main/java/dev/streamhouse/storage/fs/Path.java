package dev.streamhouse.storage.fs;

import java.io.Serializable;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A location in a file system: optional scheme and authority plus a slash-separated path. The path
 * is kept verbatim, never URL-decoded, because partition directory names contain escapes such as
 * {@code %2F} that must reach the file system unchanged.
 */
public final class Path implements Comparable<Path>, Serializable {
    private static final long serialVersionUID = 1L;
    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.\\-]+):(.*)$");

    private final String scheme;
    private final String authority;
    private final String path;

    private Path(String scheme, String authority, String path) {
        this.scheme = scheme;
        this.authority = authority;
        this.path = normalize(path);
    }

    /** Parses {@code scheme://authority/path}, {@code scheme:/path} or a plain absolute/relative path. */
    public Path(String location) {
        Objects.requireNonNull(location, "location");
        if (location.isEmpty()) {
            throw new IllegalArgumentException("Cannot create a Path from an empty string");
        }
        Matcher m = SCHEME.matcher(location);
        String s = null;
        String a = null;
        String rest = location;
        if (m.matches()) {
            s = m.group(1);
            rest = m.group(2);
            if (rest.startsWith("//")) {
                int slash = rest.indexOf('/', 2);
                a = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
                rest = slash < 0 ? "/" : rest.substring(slash);
            }
        }
        this.scheme = s;
        this.authority = a;
        this.path = normalize(rest);
    }

    /** {@code parent/child}; the child may itself contain slashes (e.g. a partition path). */
    public Path(Path parent, String child) {
        this(parent.scheme, parent.authority, join(parent.path, child));
    }

    private static String join(String parent, String child) {
        if (child.startsWith("/")) {
            child = child.substring(1);
        }
        return parent.endsWith("/") ? parent + child : parent + "/" + child;
    }

    private static String normalize(String p) {
        if (p.isEmpty()) {
            return "/";
        }
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    /** The scheme, e.g. {@code file} or {@code s3}; null for a plain path. */
    public String scheme() {
        return scheme;
    }

    /** The authority (host or bucket); null if none. */
    public String authority() {
        return authority;
    }

    /** The path part, verbatim. */
    public String path() {
        return path;
    }

    /** The last path segment. */
    public String name() {
        int slash = path.lastIndexOf('/');
        return path.substring(slash + 1);
    }

    /** The parent directory, or null at the root. */
    public Path parent() {
        int slash = path.lastIndexOf('/');
        if (slash < 0 || path.equals("/")) {
            return null;
        }
        return new Path(scheme, authority, slash == 0 ? "/" : path.substring(0, slash));
    }

    @Override
    public int compareTo(Path o) {
        return toString().compareTo(o.toString());
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Path)) {
            return false;
        }
        Path that = (Path) o;
        return Objects.equals(scheme, that.scheme)
                && Objects.equals(authority, that.authority)
                && path.equals(that.path);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scheme, authority, path);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (scheme != null) {
            sb.append(scheme).append(':');
        }
        if (authority != null) {
            sb.append("//").append(authority);
        }
        return sb.append(path).toString();
    }
}
