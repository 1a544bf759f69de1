"""DTL001 factory-without-dtype: `torch.zeros(...)` & co. without `dtype=` meeting activations."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from dtypelint.analysis import FactoryCall, Meet, ModuleAnalysis, is_integer_name
from dtypelint.analysis.syntax import is_empty_tensor_call, names_in_order
from dtypelint.codemod import insert_keyword
from dtypelint.diagnostics import Diagnostic, Edit
from dtypelint.rules.base import Invalid, Rule, make_fix

_MEET_PHRASES = {
    "return": "is returned from forward",
    "module": "is passed to a submodule",
}


class FactoryWithoutDtype(Rule):
    code = "DTL001"
    name = "factory-without-dtype"
    summary = "Tensor factory without `dtype=` meets activations (defaults to float32/int64)"

    valid = (
        # dtype given, also through **factory_kwargs
        "import torch\ndef f(x: torch.Tensor):\n    return x + torch.zeros(3, dtype=x.dtype)\n",
        "import torch\ndef f(x: torch.Tensor, **factory_kwargs):\n    return x + torch.zeros(3, **factory_kwargs)\n",
        # *_like and new_*
        "import torch\ndef f(x: torch.Tensor):\n    return x + torch.zeros_like(x) + x.new_ones(3)\n",
        # cast right after creation
        "import torch\ndef f(x: torch.Tensor):\n    return x * torch.ones(3, device=x.device).to(x.dtype)\n",
        # integer arange used as an index
        "import torch\ndef f(x: torch.Tensor):\n    idx = torch.arange(x.shape[0], device=x.device)\n    return x[idx, idx]\n",
        # 0-dim scalar tensor
        "import torch\ndef f(x: torch.Tensor):\n    return x * torch.tensor(0.5, device=x.device)\n",
        # outside tensor-taking code
        "import torch\ndef grid(n: int):\n    return torch.zeros(n, n)\n",
    )
    invalid = (
        Invalid(
            "import torch\ndef f(x: torch.Tensor):\n    return torch.cat([x, torch.zeros(2, 3)])\n",
            line=3,
            column=26,
            fixed="import torch\ndef f(x: torch.Tensor):\n    return torch.cat([x, torch.zeros(2, 3, dtype=x.dtype)])\n",
        ),
        Invalid(
            "import torch as th\nfrom torch import ones\n\ndef f(x: th.Tensor):\n    device = x.device\n    m = ones(4, device=device)\n    return x * m\n",
            line=6,
            column=9,
            fixed="import torch as th\nfrom torch import ones\n\ndef f(x: th.Tensor):\n    device = x.device\n    m = ones(4, device=device, dtype=x.dtype)\n    return x * m\n",
        ),
    )

    def check(self, module: ModuleAnalysis) -> Iterator[Diagnostic]:
        reported: dict[FactoryCall, list[Meet]] = {}
        # `torch.empty(0)`: a placeholder with no values to promote, never reported
        candidates = [
            record
            for record in module.factory_calls
            if record.origin == "factory"
            and record.function is not None
            # made with a `dtype=None` parameter: reported where a caller leaves it out
            and not (record.dtype_param and record.factory != "helper")
            and not is_empty_tensor_call(record.node)
        ]
        for record in candidates:
            meets = reportable_meets(record)
            if meets:
                reported[record] = meets
                yield self.report(module, record, meets)
        for record in candidates:
            if record in reported:
                continue
            for other, operand in record.companions:
                if other in reported and not (other in record.partners or record in other.partners):
                    yield self.report_companion(module, record, other, reported[other], operand)
                    break

    def report_companion(
        self,
        module: ModuleAnalysis,
        record: FactoryCall,
        other: FactoryCall,
        meets: list[Meet],
        operand: ast.AST | None,
    ) -> Diagnostic:
        """A factory that meets only another reported one (`cat([coords, torch.rand(...)])`):
        once that one is fixed, this one meets the activations' dtype. One check reports both."""
        names = names_in_order(operand) if operand is not None else []
        held = f"'{names[0]}'" if names else "a value"
        line = other.node.lineno  # type: ignore[attr-defined]
        message = f"{made_as(record)} but meets {held}, made on line {line} without dtype= too"
        source = dtype_source(other, meets)
        if source is None or not (
            source.name in record.bound_act_names or source.name.startswith("self.")
        ):
            message += "; give it the same dtype as that one"
            return self.diagnostic(module, record.node, message)
        message += f"; add dtype={source.name}.dtype as there"
        edit = insert_keyword(module.source, record.node, "dtype", f"{source.name}.dtype")  # type: ignore[arg-type]
        fix = None
        if edit is not None:
            safe = source.safe and not int_change(record)
            fix = make_fix(f"Add `dtype={source.name}.dtype`", [edit], safe=safe)
        return self.diagnostic(module, record.node, message, fix)

    def report(self, module: ModuleAnalysis, record: FactoryCall, meets: list[Meet]) -> Diagnostic:
        source = dtype_source(record, meets)
        if met_by_a_caller(record, meets[0]):
            where = meets[0].function.qualname  # type: ignore[union-attr]
            message = f"{made_as(record)}, is returned and {meets_phrase(meets[0])} in {where}()"
        else:
            message = f"{made_as(record)} but {meets_phrase(meets[0])}".replace("but is", "and is")
        if source is None:
            message += "; give it the activations' dtype (no tensor known to have it is bound on every path to this call)"
            return self.diagnostic(module, record.node, message)
        if record.integer and record.used_as_index:
            # fair-esm's `seqpos`: a float dtype would break its use as an index elsewhere
            message += f"; cast it to {source.name}.dtype where it meets it (it is an index too)"
            return self.diagnostic(module, record.node, message)
        if record.legacy:  # takes no dtype=
            message += f"; make it torch.tensor(..., dtype={source.name}.dtype)"
        elif record.returned_from is not None:
            message += f"; cast it with .to({source.name}.dtype)"
        else:
            message += f"; add dtype={source.name}.dtype"
        if source.why:
            message += f" ({source.why})"
        fix = None
        edits = [
            insert_keyword(module.source, node, "dtype", f"{source.name}.dtype")
            for node in [record.node, *partner_nodes(record, source.name)]
        ]
        if record.returned_from is not None:  # the helper takes no dtype: cast what it returns
            end = module.source.end(record.node)
            edits = [Edit(f".to({source.name}.dtype)", end, end)]
        if record.legacy:  # `torch.Tensor([...])` takes no dtype=: `torch.tensor([...], dtype=...)`
            edits.append(_lowercase_constructor(module, record))
        if all(edit is not None for edit in edits):
            title = _fix_title(record, source.name)
            fix = make_fix(title, edits, safe=source.safe and not int_change(record))  # type: ignore[arg-type]
        return self.diagnostic(module, record.node, message, fix)


def _fix_title(record: FactoryCall, source: str) -> str:
    """The fix's title names the edit it makes, as the message does."""
    if record.returned_from is not None:
        return f"Cast the result with `.to({source}.dtype)`"
    if record.legacy:
        return f"Use `torch.tensor(..., dtype={source}.dtype)`"
    return f"Add `dtype={source}.dtype`"


def _lowercase_constructor(module: ModuleAnalysis, record: FactoryCall) -> Edit | None:
    func = record.node.func  # type: ignore[attr-defined]
    if not isinstance(func, ast.Attribute):
        return None  # `from torch import Tensor`: the name `tensor` may not be imported
    source = module.source
    return Edit(".tensor", source.end(func.value), source.end(func))  # `.Tensor` -> `.tensor`


def partner_nodes(record: FactoryCall, source: str) -> list:
    """Factories that must take the same dtype for the fixed code to run (`scatter_add_`'s
    source): fixed together, or not at all (a partner where `source` is not bound: no fix)."""
    nodes = []
    for partner in sorted(record.partners, key=lambda r: (r.node.lineno, r.node.col_offset)):  # type: ignore[attr-defined]
        if partner.meets:
            continue  # reported and fixed on its own
        if source not in partner.bound_act_names and not source.startswith("self."):
            return [None]
        nodes.append(partner.node)
    return nodes


def made_as(record: FactoryCall) -> str:
    """What the factory makes, truly: `torch.arange(n)` is int64, float32 only once divided."""
    call = f"{record.func_text}(...)"
    if record.returned_from is not None and record.dtype_param:
        given = f"its dtype comes from `{record.dtype_param}`, None unless given"
        return f"{call} returns a float32 tensor ({record.returned_from}: {given})"
    if record.returned_from is not None:
        return f"{call} returns a float32 tensor ({record.returned_from} has no dtype=)"
    if record.integer and record.became_float:
        return f"{call} makes int64 values that arithmetic turns into float32,"  # "..., but meets"
    return f"{call} defaults to {record.default_dtype}"


def meets_phrase(meet: Meet) -> str:
    if meet.act_names:
        return f"meets '{meet.act_names[0]}'"
    if meet.kind == "helper" and isinstance(meet.node, ast.Call):
        # `scatter(out, ...)`: a function that combines it with activations, not a submodule
        return f"is passed to {ast.unparse(meet.node.func)}(), which combines it with activations"
    return _MEET_PHRASES.get(meet.kind, "meets activations")


def int_change(record: FactoryCall) -> bool:
    """Giving an int64 factory a float dtype changes its values (or breaks its use as an index):
    never safe, except a vector of small int literals (`[0, 1, 0]`), exact in any float dtype."""
    if not record.integer:
        return False
    if record.used_as_index:
        return True
    return not (record.int_literal_vector and record.largest_literal <= 256)


def reportable_meets(record: FactoryCall) -> list[Meet]:
    """Meetings worth reporting: autocast casts the operands of matrix products (and so of
    the linear and convolution layers a submodule runs), not of elementwise operations, which
    still promote."""
    return [
        meet
        for meet in record.meets
        if not (meet.autocast and (meet.matmul or meet.kind in ("module", "helper")))
        and not meet.fixed_precision
        and not meet.rounded
        # `acc[..., y:y2] += logits`: a float32 buffer summing activations keeps float32 on
        # purpose and raises nothing (an integer one raises: still reported)
        and not (meet.kind == "accumulate" and not record.integer)
        and (meet.function is None or meet.function.low_precision)
        # Losses accumulate in float32 and build float32 targets on purpose: there only
        # what raises counts (NumPy's float64 aside: nobody means that).
        and (
            meet.strict
            or record.numpy_data
            or meet.function is None
            or meet.function.scope_reason != "loss"
            # `distance[mask] = dist[mask]`: an index put of another dtype raises
            or (meet.kind == "index" and meet.function.indices_only)
        )
    ]


@dataclass(frozen=True)
class DtypeSource:
    """The tensor a fix takes its dtype from, whether that is a safe fix, and why that tensor
    (said in the message when it is not the activation the factory meets)."""

    name: str
    safe: bool
    why: str = ""


def dtype_source(record: FactoryCall, meets: list[Meet]) -> DtypeSource | None:
    """The tensor whose dtype the factory should take: "inherit the input dtype".

    Only names bound to a floating activation on every path to the call, never `None` there
    (`record.bound_act_names`), and module parameters and buffers (`self.weight`). Among the
    activations it meets: the first it meets, else the one whose `.device` the call already uses,
    else an input, else a module parameter. Else the tensor whose `.device` it uses. None: no
    valid source, report without a fix.
    """
    own = [meet for meet in meets if not met_by_a_caller(record, meet)]  # a caller's names
    first = (own or meets)[0]  # are not bound here
    met = [
        name
        for meet in own
        for name in meet.act_names
        if name in record.bound_act_names or name.startswith("self.")
    ]
    device = record.device_source if record.device_source in record.bound_act_names else None
    first_met = first.act_names[0] if first.act_names else None
    inputs = [name for name in met if not name.startswith("self.")]
    if first_met is not None and first_met in inputs:
        # What it meets first decides: under autocast a float32 flow and bf16 features meet
        # (RoMa's `warp + window`), and the window must follow the flow, not the features.
        return DtypeSource(first_met, True, "")
    if device is not None and device in met:
        return DtypeSource(
            device, True, _why(device, first_met, "the tensor its device comes from")
        )
    if inputs:
        return DtypeSource(inputs[0], True, _why(inputs[0], first_met, "an input it meets"))
    if met:
        return DtypeSource(met[0], True, _why(met[0], first_met, "a module parameter it meets"))
    if device is not None and not is_integer_name(device):
        # (`mask.device`: an index tensor's dtype would be wrong; it is not an activation anyway.)
        # Unsafe where it meets only layers (`self.pos_conv(grid)`, maybe through a helper),
        # whose weights may hold another dtype than this input: RoMa calls its float32 GP
        # outside autocast with bf16 features, and a bf16 grid would make the layer raise.
        layers = all(
            meet.kind in ("module", "helper") and not meet.act_names for meet in own or meets
        )
        if layers:
            return DtypeSource(device, False, "the tensor its device comes from; check it")
        return DtypeSource(
            device, True, _why(device, first_met, "the tensor its device comes from")
        )
    # The input what it meets is computed from (`dist` from `xyz`), an unsafe guess; never just
    # the first tensor parameter: it may be a label tensor (`dtype=gender.dtype` made SMPL's
    # vertex buffer integer and its index_put raise).
    function = record.function
    derived = {p for meet in own for p in meet.act_params}
    params = [
        p
        for p in (function.tensor_params if function else [])
        if p in derived and p in record.bound_act_names
    ]
    if params:
        return DtypeSource(params[0], False, "the input it is computed from; check it")
    return None


def met_by_a_caller(record: FactoryCall, meet: Meet) -> bool:
    """A factory a helper returns in a tuple, met in the caller (`q, k, v, bias = split(...)`;
    `scores + bias`): reported where it is made, its dtype from a tensor of the helper."""
    return None not in (meet.function, record.function) and meet.function is not record.function


def _why(name: str, first_met: str | None, reason: str) -> str:
    return "" if first_met is None or name == first_met else reason
