# gcnsmt's Bitwuzla worker (verifier/src/smt/bitwuzla.rs starts it; not a user script).
# Long-lived: reads queries from stdin, answers on stdout, one at a time.
#   query:  a line "TIMEOUT_MS NBYTES", then NBYTES of SMT-LIB 2 (declarations and asserts)
#   answer: "unsat" | "unknown\tREASON" | "error\tMESSAGE" | "sat" followed by the model:
#           "c\tNAME\tVALUE" for each declared constant and "f\tNAME\tARG...\tVALUE" for each
#           application of a declared function in the assertions (values: binary bit-vector
#           digits, or true/false), then a line "end".
# The model lists only what gcnsmt needs to rebuild it: the values of the inputs and of the
# memories (uninterpreted functions) at the addresses the query reads.
import sys

import bitwuzla as bz


def value(solver, term):
    v = solver.get_value(term)
    if term.sort().is_bool():
        return "true" if v.is_true() else "false"
    if term.sort().is_bv():
        return v.value(2)
    raise ValueError(f"value of sort {term.sort()}")


def name(term):
    """The symbol as declared, without SMT-LIB's |quotes|."""
    s = str(term.symbol())
    return s[1:-1] if len(s) > 1 and s[0] == "|" and s[-1] == "|" else s


def applications(assertions):
    """Every application of an uninterpreted function in the assertions (each node once)."""
    seen, apps, stack = set(), [], list(assertions)
    while stack:
        t = stack.pop()
        if t.id() in seen:
            continue
        seen.add(t.id())
        if t.kind() == bz.Kind.APPLY:
            apps.append(t)
        stack.extend(t.children())
    return apps


def answer(text, timeout_ms):
    tm = bz.TermManager()
    opts = bz.Options()
    opts.set(bz.Option.PRODUCE_MODELS, True)
    if timeout_ms > 0:
        opts.set(bz.Option.TIME_LIMIT_PER, timeout_ms)
    parser = bz.Parser(tm, opts)
    # parse_only: the text's own (check-sat), if any, is not run; we ask below.
    parser.parse(text, True, False)
    solver = parser.bitwuzla()
    r = solver.check_sat()
    if r == bz.Result.UNSAT:
        return ["unsat"]
    if r != bz.Result.SAT:
        return ["unknown\tbitwuzla: unknown (time limit or incomplete)"]
    out = ["sat"]
    funs = parser.get_declared_funs()
    for f in funs:
        if f.sort().is_fun():
            continue
        out.append(f"c\t{name(f)}\t{value(solver, f)}")
    for app in applications(solver.get_assertions()):
        kids = app.children()
        fun, args = kids[0], kids[1:]
        vals = [value(solver, a) for a in args] + [value(solver, app)]
        out.append("f\t" + name(fun) + "\t" + "\t".join(vals))
    return out


def main():
    inp, out = sys.stdin.buffer, sys.stdout
    while True:
        header = inp.readline()
        if not header:
            return
        timeout_ms, n = (int(x) for x in header.split())
        text = inp.read(n).decode()
        try:
            lines = answer(text, timeout_ms)
        except Exception as e:  # parse or API error: reported, the worker lives on
            lines = ["error\t" + " ".join(str(e).split())]
        out.write("\n".join(lines) + "\nend\n")
        out.flush()


main()
