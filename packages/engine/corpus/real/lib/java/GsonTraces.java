// Drives the pinned gson build into the failures an application meets, printing each exception
// the way an uncaught one is printed: the stack traces of the real corpus's Java items.
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.TypeAdapter;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.util.List;
import java.util.Map;

public final class GsonTraces {
  static final class Item {
    String name;
    List<Integer> tags;
    Map<String, Item> children;
  }

  static final class Node {
    String id;
    Node next;
  }

  static final class Order {
    String id;
    Price price;
  }

  static final class Price {
    long cents;
  }

  static final class StrictPrice extends TypeAdapter<Price> {
    @Override
    public void write(JsonWriter out, Price value) throws IOException {
      out.value(value.cents);
    }

    @Override
    public Price read(JsonReader in) throws IOException {
      String raw = in.nextString();
      if (!raw.matches("\\d+")) throw new IllegalStateException("price must be integral cents, got '" + raw + "'");
      Price p = new Price();
      p.cents = Long.parseLong(raw);
      return p;
    }
  }

  static final class ConfigLoader {
    Item load(String text) {
      try {
        return new Gson().fromJson(text, Item.class);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("could not load catalog config", e);
      }
    }
  }

  static final class Exporter {
    String export(Object value) {
      return new GsonBuilder().setPrettyPrinting().create().toJson(value);
    }
  }

  public static void main(String[] args) {
    switch (args[0]) {
      case "malformed" -> new ConfigLoader().load("{\"name\": \"shop\", \"children\": {\"a\": {\"name\": \"x\", \"tags\": [1, 2,, }}}");
      case "cycle" -> {
        Node a = new Node();
        a.id = "a";
        Node b = new Node();
        b.id = "b";
        a.next = b;
        b.next = a;
        new Exporter().export(a);
      }
      case "reflection" -> new Exporter().export(Map.of("worker", new Thread("billing-worker")));
      case "adapter" -> {
        Gson gson = new GsonBuilder().registerTypeAdapter(Price.class, new StrictPrice()).create();
        String json = "[{\"id\":\"o-1\",\"price\":\"1200\"},{\"id\":\"o-2\",\"price\":\"12.50\"}]";
        gson.fromJson(json, new TypeToken<List<Order>>() {}.getType());
      }
      default -> throw new IllegalArgumentException(args[0]);
    }
  }
}
