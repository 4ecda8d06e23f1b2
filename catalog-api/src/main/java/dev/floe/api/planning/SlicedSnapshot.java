package dev.floe.api.planning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.io.FileIO;

/**
 * One snapshot whose data manifests are a slice of its own: a plan task plans the data manifests
 * {@code [from, to)} against all of the snapshot's delete manifests, so each data file gets the
 * same delete files as in a plan of the whole snapshot. Everything else is the snapshot's.
 */
final class SlicedSnapshot implements Snapshot {
  private final Snapshot snapshot;
  private final int from;
  private final int to;

  SlicedSnapshot(Snapshot snapshot, int from, int to) {
    this.snapshot = snapshot;
    this.from = from;
    this.to = to;
  }

  @Override
  public List<ManifestFile> dataManifests(FileIO io) {
    List<ManifestFile> all = snapshot.dataManifests(io);
    return all.subList(Math.min(from, all.size()), Math.min(to, all.size()));
  }

  @Override
  public List<ManifestFile> deleteManifests(FileIO io) {
    return snapshot.deleteManifests(io);
  }

  @Override
  public List<ManifestFile> allManifests(FileIO io) {
    List<ManifestFile> all = new ArrayList<>(dataManifests(io));
    all.addAll(deleteManifests(io));
    return all;
  }

  @Override
  public long sequenceNumber() {
    return snapshot.sequenceNumber();
  }

  @Override
  public long snapshotId() {
    return snapshot.snapshotId();
  }

  @Override
  public Long parentId() {
    return snapshot.parentId();
  }

  @Override
  public long timestampMillis() {
    return snapshot.timestampMillis();
  }

  @Override
  public String operation() {
    return snapshot.operation();
  }

  @Override
  public Map<String, String> summary() {
    return snapshot.summary();
  }

  @Override
  public Iterable<DataFile> addedDataFiles(FileIO io) {
    return snapshot.addedDataFiles(io);
  }

  @Override
  public Iterable<DataFile> removedDataFiles(FileIO io) {
    return snapshot.removedDataFiles(io);
  }

  @Override
  public Iterable<DeleteFile> addedDeleteFiles(FileIO io) {
    return snapshot.addedDeleteFiles(io);
  }

  @Override
  public Iterable<DeleteFile> removedDeleteFiles(FileIO io) {
    return snapshot.removedDeleteFiles(io);
  }

  @Override
  public String manifestListLocation() {
    return snapshot.manifestListLocation();
  }

  @Override
  public Integer schemaId() {
    return snapshot.schemaId();
  }

  @Override
  public Long firstRowId() {
    return snapshot.firstRowId();
  }

  @Override
  public Long addedRows() {
    return snapshot.addedRows();
  }

  @Override
  public String keyId() {
    return snapshot.keyId();
  }
}
