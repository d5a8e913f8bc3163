package dev.zarrow.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.NoSuchNodeException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A gridded dataset as xarray writes it: a group whose child arrays have dimension names (v3 {@code
 * dimension_names}, or the v2 attribute {@code _ARRAY_DIMENSIONS}, xarray's convention) that they
 * share. An array named like a dimension and 1-D along it is that dimension's <em>index
 * coordinate</em>; arrays named in a variable's (or the group's) {@code coordinates} attribute are
 * <em>non-index coordinates</em> (any rank); every other array with dimension names is a <em>data
 * variable</em>. Child arrays without dimension names and subgroups are not part of it.
 *
 * <p>Open it once ({@link #open}: metadata only, no chunk is read), then make the table of some of
 * its variables ({@link #table}) and read that table whole or a chunk range at a time. A Dataset is an
 * immutable value, safe to share between threads.
 *
 * <p>Bad input is a {@link MetadataException} naming the arrays: no array with dimension names, one
 * dimension name with two lengths, a {@code coordinates} entry that names no array.
 */
public final class Dataset {
  static final String V2_DIMENSIONS = "_ARRAY_DIMENSIONS";
  static final String COORDINATES = "coordinates";

  private final ZarrGroup group;
  private final Map<String, Long> dimensions;
  private final Map<String, Variable> variables;

  private Dataset(ZarrGroup group, Map<String, Long> dimensions, Map<String, Variable> variables) {
    this.group = group;
    this.dimensions = Collections.unmodifiableMap(dimensions);
    this.variables = Collections.unmodifiableMap(variables);
  }

  /** Whether {@code group} has a child array with dimension names (what {@link #open} needs). */
  public static boolean isDataset(ZarrGroup group) {
    for (ZarrNode child : group.children().nodes().values()) {
      if (child instanceof ZarrArray a && dimensionNames(a).isPresent()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The dataset of {@code group}: its child arrays' metadata (already read with the group's children),
   * no chunk. A group that is no dataset, or whose arrays disagree (see the class comment), is a {@link
   * MetadataException} naming them; a child that cannot be opened is its own {@link
   * dev.zarrow.error.ZarrException}.
   */
  public static Dataset open(ZarrGroup group) {
    ZarrGroup.Children children = group.children();
    if (!children.failures().isEmpty()) {
      Map.Entry<String, dev.zarrow.error.ZarrException> first = children.failures().entrySet().iterator().next();
      throw first.getValue().withContext("group '" + group.path() + "', array '" + first.getKey() + "'");
    }
    Map<String, ZarrArray> arrays = new LinkedHashMap<>();
    Map<String, List<String>> names = new LinkedHashMap<>();
    for (Map.Entry<String, ZarrNode> child : children.nodes().entrySet()) {
      if (child.getValue() instanceof ZarrArray a) {
        Optional<List<String>> dims = dimensionNames(a);
        if (dims.isPresent()) {
          arrays.put(child.getKey(), a);
          names.put(child.getKey(), dims.get());
        }
      }
    }
    if (arrays.isEmpty()) {
      throw new NoSuchNodeException("group '" + group.path() + "' in " + group.store().describe()
          + " is no dataset: none of its arrays has dimension names (v3 dimension_names or the v2 attribute "
          + V2_DIMENSIONS + ")");
    }
    Map<String, Long> dimensions = new LinkedHashMap<>();
    Map<String, String> lengthFrom = new LinkedHashMap<>();
    for (Map.Entry<String, ZarrArray> e : arrays.entrySet()) {
      long[] shape = e.getValue().shape();
      List<String> dims = names.get(e.getKey());
      for (int d = 0; d < dims.size(); d++) {
        String dim = dims.get(d);
        Long known = dimensions.putIfAbsent(dim, shape[d]);
        lengthFrom.putIfAbsent(dim, e.getKey());
        if (known != null && known != shape[d]) {
          throw new MetadataException("group '" + group.path() + "': dimension '" + dim + "' has length " + known
              + " in array '" + lengthFrom.get(dim) + "' and " + shape[d] + " in array '" + e.getKey() + "'");
        }
      }
    }
    Set<String> coordinates = new LinkedHashSet<>();
    addCoordinates(group.attributes(), "group '" + group.path() + "'", arrays, group, coordinates);
    for (Map.Entry<String, ZarrArray> e : arrays.entrySet()) {
      addCoordinates(e.getValue().attributes(), "array '" + e.getKey() + "'", arrays, group, coordinates);
    }
    Map<String, Variable> variables = new LinkedHashMap<>();
    for (Map.Entry<String, ZarrArray> e : arrays.entrySet()) {
      String name = e.getKey();
      List<String> dims = names.get(name);
      Variable.Role role = dims.size() == 1 && dims.get(0).equals(name) ? Variable.Role.INDEX
          : coordinates.contains(name) ? Variable.Role.COORDINATE : Variable.Role.DATA;
      ObjectNode attributes = e.getValue().attributes();
      attributes.remove(V2_DIMENSIONS);
      variables.put(name, new Variable(name, e.getValue(), dims, role, attributes));
    }
    return new Dataset(group, dimensions, variables);
  }

  /**
   * The dimension names of {@code array}: v3 {@code dimension_names} (every entry named), else the
   * attribute {@code _ARRAY_DIMENSIONS} (a list of strings, one per dimension); empty otherwise.
   */
  static Optional<List<String>> dimensionNames(ZarrArray array) {
    List<String> v3 = array.metadata().dimensionNames();
    if (v3 != null && !v3.contains(null)) {
      return Optional.of(v3);
    }
    JsonNode v2 = array.attributes().get(V2_DIMENSIONS);
    if (v2 == null || !v2.isArray() || v2.size() != array.rank()) {
      return Optional.empty();
    }
    List<String> out = new ArrayList<>();
    for (JsonNode n : v2) {
      if (!n.isTextual()) {
        return Optional.empty();
      }
      out.add(n.textValue());
    }
    return Optional.of(out);
  }

  private static void addCoordinates(ObjectNode attributes, String where, Map<String, ZarrArray> arrays, ZarrGroup group,
      Set<String> out) {
    JsonNode value = attributes.get(COORDINATES);
    if (value == null || !value.isTextual()) {
      return;
    }
    for (String name : value.textValue().trim().split("\\s+")) {
      if (name.isEmpty()) {
        continue;
      }
      if (!arrays.containsKey(name)) {
        throw new MetadataException("group '" + group.path() + "': " + where + " names coordinate '" + name
            + "' in its " + COORDINATES + " attribute, but the group has no array '" + name + "' with dimension names"
            + " (arrays: " + arrays.keySet() + ")");
      }
      out.add(name);
    }
  }

  public ZarrGroup group() {
    return group;
  }

  /** The group's attributes (the dataset's global attributes). */
  public ObjectNode attributes() {
    return group.attributes();
  }

  /** Every dimension with its length, in the order the arrays first name them. */
  public Map<String, Long> dimensions() {
    return dimensions;
  }

  /** Every array of the dataset by name, in the group's order. */
  public Map<String, Variable> variables() {
    return variables;
  }

  /** The variable named {@code name}; a {@link NoSuchNodeException} naming the variables if none. */
  public Variable variable(String name) {
    Variable v = variables.get(name);
    if (v == null) {
      throw new NoSuchNodeException("dataset '" + group.path() + "' has no variable '" + name + "' (variables: "
          + variables.keySet() + ")");
    }
    return v;
  }

  /** The data variables' names, in the group's order. */
  public List<String> dataVariables() {
    return names(Variable.Role.DATA);
  }

  /** The coordinates' names (index and non-index), in the group's order. */
  public List<String> coordinates() {
    List<String> out = new ArrayList<>(names(Variable.Role.INDEX));
    out.addAll(names(Variable.Role.COORDINATE));
    return out;
  }

  /** The index coordinate of {@code dimension}, if it has one. */
  public Optional<Variable> index(String dimension) {
    Variable v = variables.get(dimension);
    return v != null && v.role() == Variable.Role.INDEX ? Optional.of(v) : Optional.empty();
  }

  private List<String> names(Variable.Role role) {
    return variables.values().stream().filter(v -> v.role() == role).map(Variable::name).toList();
  }

  /**
   * The table of {@code options}' data variables (see {@link DatasetTable}): the grid, the schema, and
   * readers of it. Naming a variable that is no data variable, or a column the table has not, is a
   * {@link NoSuchNodeException}; a time unit that cannot be parsed is a {@link MetadataException}
   * naming the array.
   */
  public DatasetTable table(DatasetOptions options) {
    return DatasetTable.of(this, options);
  }

  /** The table of every data variable, CF-decoded. */
  public DatasetTable table() {
    return table(DatasetOptions.defaults());
  }

  @Override
  public String toString() {
    return "dataset '" + group.path() + "' " + dimensions + " of " + variables.keySet();
  }
}
