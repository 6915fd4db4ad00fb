#!/usr/bin/env python3
"""pftrace_check.py TEXT - reads `protoc --decode=pfsub.Trace pftrace_subset.proto` output of a
`tracesim decode -f perfetto` file and prints what the tests compare, one fact a line:

  slice THREAD FUNCTION BEGIN_NS END_NS CALL_SITE     (END_NS -1: not ended)
  counter TRACK_NAME TS VALUE        (a TYPE_COUNTER event's or an extra counter value)
  track thread|process|counter|track NAME    (track: a named track under a process)
  instant THREAD NAME TS
  instantarg THREAD NAME TS KEY VALUE    (an instant's arguments)
  slicearg TRACK NAME BEGIN KEY VALUE    (a slice's begin arguments on a named track)

It fails (exit 1, a line on stderr) on what Perfetto would reject or mis-show: a field protoc
did not know (a bare field number: not in the subset), an iid used before its interned data,
an event on an undescribed track, an END without a BEGIN on its track, a packet without the
sequence id or (after the first) without SEQ_NEEDS_INCREMENTAL_STATE."""
import re
import sys


def parse(text):
    """protoc's text format as nested lists of (key, value-or-list)"""
    root = []
    stack = [root]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        m = re.match(r'^([A-Za-z_0-9]+) \{$', line)
        if m:
            node = []
            stack[-1].append((m.group(1), node))
            stack.append(node)
            continue
        m = re.match(r'^([A-Za-z_0-9]+): (.*)$', line)
        if not m:
            raise SystemExit("pftrace_check: cannot read line: " + line)
        v = m.group(2)
        if v.startswith('"'):
            v = bytes(v[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
        stack[-1].append((m.group(1), v))
    return root


def get(node, key, default=None):
    for k, v in node:
        if k == key:
            return v
    return default


def getall(node, key):
    return [v for k, v in node if k == key]


def fail(msg):
    sys.stderr.write("pftrace_check: " + msg + "\n")
    sys.exit(1)


def main():
    text = open(sys.argv[1]).read()
    if re.search(r'^\s*[0-9]+: ', text, re.M) or re.search(r'^\s*[0-9]+ \{', text, re.M):
        fail("a field that is not in the subset (protoc shows its number)")
    root = parse(text)
    names, annots, strs = {}, {}, {}
    tracks = {}  # uuid -> (kind, name)
    open_ = {}  # track uuid -> stack of [name, begin, site]
    out = []
    first = True
    for k, pkt in root:
        if k != "packet":
            fail("top-level field " + k)
        if get(pkt, "trusted_packet_sequence_id") != "1":
            fail("a packet without sequence id 1")
        flags = get(pkt, "sequence_flags")
        if flags != ("SEQ_INCREMENTAL_STATE_CLEARED" if first else "SEQ_NEEDS_INCREMENTAL_STATE") and \
                flags != ("1" if first else "2"):
            fail("sequence_flags %s on %s packet" % (flags, "the first" if first else "a later"))
        first = False
        idata = get(pkt, "interned_data")
        if idata:
            for e in getall(idata, "event_names"):
                names[int(get(e, "iid"))] = get(e, "name")
            for e in getall(idata, "debug_annotation_names"):
                annots[int(get(e, "iid"))] = get(e, "name")
            for e in getall(idata, "debug_annotation_string_values"):
                strs[int(get(e, "iid"))] = get(e, "str")
        td = get(pkt, "track_descriptor")
        if td:
            uuid = int(get(td, "uuid"))
            if get(td, "process"):
                tracks[uuid] = ("process", get(get(td, "process"), "process_name"))
            elif get(td, "thread"):
                tracks[uuid] = ("thread", get(get(td, "thread"), "thread_name"))
            elif get(td, "counter") is not None:
                par = int(get(td, "parent_uuid", "0"))
                if par not in tracks:
                    fail("counter track %d before its parent" % uuid)
                tracks[uuid] = ("counter", get(td, "name"))
            elif get(td, "name") is not None and get(td, "parent_uuid") is not None:
                par = int(get(td, "parent_uuid"))
                if par not in tracks or tracks[par][0] != "process":
                    fail("named track %d before its process" % uuid)
                tracks[uuid] = ("track", get(td, "name"))
            else:
                fail("a track descriptor of no kind")
            out.append("track %s %s" % tracks[uuid])
        te = get(pkt, "track_event")
        if not te:
            continue
        ts = int(get(pkt, "timestamp", "-1"))
        if ts < 0:
            fail("a track event without a timestamp")
        uuid = int(get(te, "track_uuid", "0"))
        if uuid not in tracks:
            fail("an event on the undescribed track %d" % uuid)
        kind, tname = tracks[uuid]
        typ = get(te, "type")
        name = None
        if get(te, "name_iid"):
            iid = int(get(te, "name_iid"))
            if iid not in names:
                fail("event name iid %d before its interned data" % iid)
            name = names[iid]
        args = {}
        for a in getall(te, "debug_annotations"):
            an = int(get(a, "name_iid"))
            if an not in annots:
                fail("annotation name iid %d before its interned data" % an)
            if get(a, "string_value_iid"):
                si = int(get(a, "string_value_iid"))
                if si not in strs:
                    fail("string iid %d before its interned data" % si)
                args[annots[an]] = strs[si]
            elif get(a, "uint_value") is not None:
                args[annots[an]] = int(get(a, "uint_value"))
            else:
                args[annots[an]] = get(a, "string_value")
        xt, xv = getall(te, "extra_counter_track_uuids"), getall(te, "extra_counter_values")
        if len(xt) != len(xv):
            fail("%d extra counter tracks, %d values" % (len(xt), len(xv)))
        for u, v in zip(xt, xv):
            if int(u) not in tracks or tracks[int(u)][0] != "counter":
                fail("extra counter value on track %s: no counter track" % u)
            out.append("counter %s %d %s" % (tracks[int(u)][1].replace(" ", "_"), ts, v))
        if typ == "TYPE_COUNTER":
            if kind != "counter":
                fail("a counter value on a %s track" % kind)
            out.append("counter %s %d %s" % (tname.replace(" ", "_"), ts, get(te, "counter_value")))
            continue
        if kind not in ("thread", "track"):
            fail("a slice or instant on a %s track" % kind)
        tn = tname.replace(" ", "_")
        if typ == "TYPE_SLICE_BEGIN":
            if (kind == "thread" or "function" in args) and args.get("function") != name:
                fail("slice %s with the function argument %s" % (name, args.get("function")))
            open_.setdefault(uuid, []).append([name, ts, args.get("call_site", "-"), args])
        elif typ == "TYPE_SLICE_END":
            st = open_.get(uuid)
            if not st:
                fail("an END without a BEGIN on %s at %d" % (tname, ts))
            n, b, site, bargs = st.pop()
            if ts < b:
                fail("a slice ending before it begins")
            out.append("slice %s %s %d %d %s" % (tn, n.replace(" ", "_"), b, ts, site.replace(" ", "_")))
            for k2, v in sorted(args.items()):
                out.append("exitarg %s %s %d %s %s" % (tn, n, ts, k2, v))
            for k2, v in sorted(bargs.items()):
                if kind == "track":
                    out.append("slicearg %s %s %d %s %s" % (tn, n.replace(" ", "_"), b, k2, str(v).replace(" ", "_")))
                elif k2 not in ("function", "call_site"):
                    out.append("beginarg %s %s %d %s %s" % (tn, n, b, k2, v))
        elif typ == "TYPE_INSTANT":
            out.append("instant %s %s %d" % (tn, name.replace(" ", "_"), ts))
            for k2, v in sorted(args.items()):
                out.append("instantarg %s %s %d %s %s" % (tn, name.replace(" ", "_"), ts, k2, str(v).replace(" ", "_")))
        else:
            fail("event type " + str(typ))
    for uuid, st in open_.items():
        for n, b, site, _ in st:
            out.append("slice %s %s %d -1 %s" % (tracks[uuid][1].replace(" ", "_"), n.replace(" ", "_"), b, site.replace(" ", "_")))
    print("\n".join(out))


main()
