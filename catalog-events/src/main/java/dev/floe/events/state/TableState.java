package dev.floe.events.state;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A table as the tables store holds it: its current metadata document (Iceberg's JSON, served as-is
 * to readers), where that document lives, and counters.
 *
 * @param version how many metadata files this table has had; names the next one
 * @param sequence how many events this table has had; the next event's sequence is one more
 */
public record TableState(
    String tableUuid, String metadataLocation, String metadataJson, int version, long sequence) {
  private static final byte FORMAT = 1;

  public TableState {
    Objects.requireNonNull(tableUuid, "tableUuid");
    Objects.requireNonNull(metadataLocation, "metadataLocation");
    Objects.requireNonNull(metadataJson, "metadataJson");
  }

  /** A compact binary form: no JSON escaping of the (possibly large) metadata document. */
  public byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(metadataJson.length() + 256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeUTF(tableUuid);
      out.writeUTF(metadataLocation);
      out.writeInt(version);
      out.writeLong(sequence);
      byte[] json = metadataJson.getBytes(StandardCharsets.UTF_8);
      out.writeInt(json.length);
      out.write(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The metadata location of a stored state, read without decoding its metadata document. */
  public static String metadataLocationOf(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      byte format = in.readByte();
      if (format != FORMAT) {
        throw new IllegalStateException("Unknown table state format " + format);
      }
      in.readUTF();
      return in.readUTF();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static TableState fromBytes(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      byte format = in.readByte();
      if (format != FORMAT) {
        throw new IllegalStateException("Unknown table state format " + format);
      }
      String uuid = in.readUTF();
      String location = in.readUTF();
      int version = in.readInt();
      long sequence = in.readLong();
      byte[] json = new byte[in.readInt()];
      in.readFully(json);
      return new TableState(
          uuid, location, new String(json, StandardCharsets.UTF_8), version, sequence);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
