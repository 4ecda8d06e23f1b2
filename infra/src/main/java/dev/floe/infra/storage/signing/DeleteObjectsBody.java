package dev.floe.infra.storage.signing;

import dev.floe.infra.storage.signing.S3RequestScope.Refused;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** The body of S3's {@code DeleteObjects} (a batch delete), read for the keys it names. */
final class DeleteObjectsBody {
  /** The most keys one batch delete may name, as S3 allows. */
  static final int MAX_DELETE_KEYS = 1000;

  /** S3's namespace for its XML documents; an element may also be in none. */
  private static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

  /** The largest batch delete body read: 1,000 keys of S3's longest (1,024 bytes) and markup. */
  static final int MAX_DELETE_BODY = 1_200_000;

  /**
   * The keys of a {@code DeleteObjects} body, read by S3's grammar and nothing more: {@code
   * <Delete>} holding {@code <Object>}s of exactly one {@code <Key>} each, and an optional {@code
   * <Quiet>}; a key is plain text (no element, comment, CDATA or processing instruction inside it,
   * which stores read differently: one that kept only the text after a child element would delete a
   * key that was never checked). Anything else is refused. Streamed, so nesting costs no stack.
   */
  static List<String> keys(String body) {
    if (body.length() > MAX_DELETE_BODY) {
      throw new Refused("Cannot sign a batch delete whose body is over " + MAX_DELETE_BODY);
    }
    if (body.contains("<![CDATA[")) {
      // The JDK's reader hands CDATA over as plain text: refused before it reads.
      throw new Refused("Cannot sign a batch delete with CDATA");
    }
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    factory.setProperty(XMLInputFactory.IS_COALESCING, false);
    List<String> keys = new ArrayList<>();
    try {
      XMLStreamReader xml = factory.createXMLStreamReader(new StringReader(body));
      List<String> path = new ArrayList<>();
      StringBuilder text = new StringBuilder();
      boolean keyInObject = false;
      while (xml.hasNext()) {
        int event = xml.next();
        switch (event) {
          case XMLStreamConstants.START_ELEMENT -> {
            String ns = xml.getNamespaceURI();
            if (ns != null && !ns.isEmpty() && !ns.equals(S3_NAMESPACE)) {
              throw new Refused("Cannot sign a batch delete with elements of another namespace");
            }
            String name = xml.getLocalName();
            String parent = path.isEmpty() ? "" : path.get(path.size() - 1);
            boolean allowed =
                switch (name) {
                  case "Delete" -> path.isEmpty();
                  case "Object", "Quiet" -> parent.equals("Delete") && path.size() == 1;
                  case "Key" -> parent.equals("Object") && !keyInObject;
                  default -> false;
                };
            if (!allowed) {
              throw new Refused("Cannot sign a batch delete with " + name + " there");
            }
            if (name.equals("Object")) {
              keyInObject = false;
            }
            path.add(name);
            text.setLength(0);
          }
          case XMLStreamConstants.CHARACTERS, XMLStreamConstants.SPACE -> {
            String parent = path.isEmpty() ? "" : path.get(path.size() - 1);
            if (parent.equals("Key") || parent.equals("Quiet")) {
              text.append(xml.getText());
            } else if (!xml.isWhiteSpace()) {
              throw new Refused("Cannot sign a batch delete with text outside its keys");
            }
          }
          case XMLStreamConstants.END_ELEMENT -> {
            String name = path.remove(path.size() - 1);
            if (name.equals("Key")) {
              if (text.isEmpty()) {
                throw new Refused("Cannot sign a batch delete of an object without a key");
              }
              keys.add(text.toString());
              keyInObject = true;
            } else if (name.equals("Object") && !keyInObject) {
              throw new Refused("Cannot sign a batch delete of an object without a key");
            }
            text.setLength(0);
          }
          case XMLStreamConstants.START_DOCUMENT, XMLStreamConstants.END_DOCUMENT -> {}
          default ->
              throw new Refused(
                  "Cannot sign a batch delete with a comment, CDATA, a processing instruction or"
                      + " a document type");
        }
      }
    } catch (XMLStreamException e) {
      throw new Refused("Cannot sign a batch delete whose body is not S3's Delete document");
    }
    if (keys.isEmpty() || keys.size() > MAX_DELETE_KEYS) {
      throw new Refused(
          "Cannot sign a batch delete of " + keys.size() + " keys (1 to " + MAX_DELETE_KEYS + ")");
    }
    return keys;
  }

  private DeleteObjectsBody() {}
}
