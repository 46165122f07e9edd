package dev.streamhouse.flink.cdc.mysql.snapshot;

import java.nio.charset.Charset;
import java.util.Locale;
import java.util.Map;

/** MySQL character set names as Java charsets (MySQL's {@code latin1} is Windows-1252). */
final class MySqlCharsets {

    private static final Map<String, String> JAVA_NAMES = Map.ofEntries(
            Map.entry("utf8mb4", "UTF-8"), Map.entry("utf8mb3", "UTF-8"), Map.entry("utf8", "UTF-8"),
            Map.entry("latin1", "windows-1252"), Map.entry("ascii", "US-ASCII"), Map.entry("latin2", "ISO-8859-2"),
            Map.entry("latin5", "ISO-8859-9"), Map.entry("latin7", "ISO-8859-13"), Map.entry("greek", "ISO-8859-7"),
            Map.entry("hebrew", "ISO-8859-8"), Map.entry("cp1250", "windows-1250"), Map.entry("cp1251", "windows-1251"),
            Map.entry("cp1256", "windows-1256"), Map.entry("cp1257", "windows-1257"), Map.entry("cp850", "IBM850"),
            Map.entry("cp852", "IBM852"), Map.entry("cp866", "IBM866"), Map.entry("koi8r", "KOI8-R"),
            Map.entry("koi8u", "KOI8-U"), Map.entry("ucs2", "UTF-16BE"), Map.entry("utf16", "UTF-16BE"),
            Map.entry("utf16le", "UTF-16LE"), Map.entry("utf32", "UTF-32BE"), Map.entry("gbk", "GBK"),
            Map.entry("gb2312", "GB2312"), Map.entry("gb18030", "GB18030"), Map.entry("big5", "Big5"),
            Map.entry("sjis", "Shift_JIS"), Map.entry("cp932", "windows-31j"), Map.entry("ujis", "EUC-JP"),
            Map.entry("eucjpms", "EUC-JP"), Map.entry("euckr", "EUC-KR"), Map.entry("tis620", "TIS-620"));

    private MySqlCharsets() {}

    /** The Java charset of a MySQL character set; null when unknown (or for a null name). */
    static Charset forName(String mysqlName) {
        if (mysqlName == null) {
            return null;
        }
        String javaName = JAVA_NAMES.get(mysqlName.toLowerCase(Locale.ROOT));
        return javaName == null || !Charset.isSupported(javaName) ? null : Charset.forName(javaName);
    }
}
