/// `org.freedesktop.DBus.Introspectable` XML generated from the dispatch tables.
enum Introspection {
    private static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    /// The standard interfaces, always present on an exported object.
    private static let standard = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg name="xml_data" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="out"/>
            </method>
            <method name="GetAll">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="properties" type="a{sv}" direction="out"/>
            </method>
            <method name="Set">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/>
              <arg name="invalidated_properties" type="as"/>
            </signal>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg name="machine_uuid" type="s" direction="out"/>
            </method>
          </interface>

        """

    /// The document for `object` (nil for a bare parent node) listing `children` as sub-nodes.
    static func xml(for object: DBusObject?, children: [String]) -> String {
        var out = header + "<node>\n"
        if let object {
            out += standard
            for interface in object.interfaces { out += xml(for: interface) }
        }
        for child in children { out += "  <node name=\"\(escape(child))\"/>\n" }
        return out + "</node>\n"
    }

    private static func xml(for interface: DBusInterface) -> String {
        var out = "  <interface name=\"\(escape(interface.name))\">\n"
        for method in interface.methods {
            out += "    <method name=\"\(escape(method.name))\">\n"
            for arg in method.inputs { out += argument(arg, direction: "in") }
            for arg in method.outputs { out += argument(arg, direction: "out") }
            out += "    </method>\n"
        }
        for signal in interface.signals {
            out += "    <signal name=\"\(escape(signal.name))\">\n"
            for arg in signal.arguments { out += argument(arg, direction: nil) }
            out += "    </signal>\n"
        }
        for property in interface.properties {
            let open = "    <property name=\"\(escape(property.name))\" type=\"\(escape(property.signature))\" "
                + "access=\"\(property.access.rawValue)\""
            if property.emitsChanged {
                out += open + "/>\n"
            } else {
                out += open + ">\n      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" "
                    + "value=\"false\"/>\n    </property>\n"
            }
        }
        return out + "  </interface>\n"
    }

    private static func argument(_ arg: DBusArgument, direction: String?) -> String {
        let dir = direction.map { " direction=\"\($0)\"" } ?? ""
        return "      <arg name=\"\(escape(arg.name))\" type=\"\(escape(arg.signature))\"\(dir)/>\n"
    }

    /// XML attribute escaping; names are restricted by D-Bus but argument names are free text.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
