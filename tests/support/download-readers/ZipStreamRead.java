// Reads a zip front to back as Java's ZipInputStream does (no central directory), printing each entry's
// name and size: a stored entry whose sizes are not in its local header is refused here.
import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

public class ZipStreamRead {
  public static void main(String[] args) throws Exception {
    try (ZipInputStream zip = new ZipInputStream(new FileInputStream(args[0]), StandardCharsets.UTF_8)) {
      for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
        long size = zip.transferTo(java.io.OutputStream.nullOutputStream());
        System.out.println(entry.getName() + "\t" + size);
      }
    }
  }
}
