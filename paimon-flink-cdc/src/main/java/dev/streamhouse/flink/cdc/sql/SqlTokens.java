package dev.streamhouse.flink.cdc.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A statement cut into the tokens {@link SyncStatementParser} reads: words (unquoted names and
 * keywords), backquoted names ({@code `a``b`} is {@code a`b}), string literals ({@code 'it''s'}),
 * hints ({@code /*+ ... *&#47;}, their text) and single-character symbols. Blanks, {@code --} line
 * comments and other {@code /* *&#47;} comments are dropped.
 */
final class SqlTokens {
    enum Kind { WORD, QUOTED_NAME, STRING, HINT, SYMBOL }

    /** A token: its kind, its text (unquoted) and where it starts in the statement. */
    record Token(Kind kind, String text, int position) {
        boolean isWord(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }

        boolean isSymbol(char symbol) {
            return kind == Kind.SYMBOL && text.charAt(0) == symbol;
        }

        /** As the statement has it, for messages. */
        String shown() {
            return switch (kind) {
                case QUOTED_NAME -> "`" + text + "`";
                case STRING -> "'" + text + "'";
                case HINT -> "/*+" + text + "*/";
                default -> text;
            };
        }
    }

    private SqlTokens() {}

    /** @throws IllegalArgumentException for an unterminated quote or comment */
    static List<Token> of(String sql) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("Unterminated comment starting at position " + (i + 1));
                }
                if (i + 2 < n && sql.charAt(i + 2) == '+') {
                    tokens.add(new Token(Kind.HINT, sql.substring(i + 3, end), i));
                }
                i = end + 2;
            } else if (c == '`' || c == '\'') {
                StringBuilder text = new StringBuilder();
                int start = i;
                i++;
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException("Unterminated " + (c == '`' ? "name" : "string")
                                + " starting at position " + (start + 1) + ": " + sql.substring(start));
                    }
                    char d = sql.charAt(i);
                    if (d == c && i + 1 < n && sql.charAt(i + 1) == c) {
                        text.append(c);
                        i += 2;
                    } else if (d == c) {
                        i++;
                        break;
                    } else {
                        text.append(d);
                        i++;
                    }
                }
                tokens.add(new Token(c == '`' ? Kind.QUOTED_NAME : Kind.STRING, text.toString(), start));
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                        || sql.charAt(i) == '$')) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, sql.substring(start, i), start));
            } else {
                tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), i));
                i++;
            }
        }
        return tokens;
    }

    /** The upper-case text of the first {@code count} words, or shorter when the statement starts otherwise. */
    static String leadingWords(List<Token> tokens, int count) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(count, tokens.size()) && tokens.get(i).kind() == Kind.WORD; i++) {
            s.append(i == 0 ? "" : " ").append(tokens.get(i).text().toUpperCase(Locale.ROOT));
        }
        return s.toString();
    }
}
