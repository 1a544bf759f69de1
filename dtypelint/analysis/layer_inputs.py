"""The inputs of layers: a value cast to a fixed dtype given to a torch.nn layer with weights
meets them, as a matmul operand meets the other side (DTL003; part of `FunctionFlow`). The layer
is found as `__init__` builds it (`layers.first_layer`): `self.fc(x)`, the head of an
`nn.Sequential`, an element of an `nn.ModuleList` (`self.layers[0](x)`, `for layer in
self.layers`), `super().forward(x)` in a subclass of a layer, and a submodule of the file whose
`forward` hands its input unchanged to a layer of its own (`Summary.layer_params`).
"""

from __future__ import annotations

import ast

from dtypelint.analysis.layers import LayerHead, assigned_in_init, first_layer
from dtypelint.analysis.syntax import dotted_name, kept_in_fp32, last_name
from dtypelint.analysis.values import EMPTY, FIXED, Summary, Value
from dtypelint.analysis.vocabulary import LAYERS_WITH_WEIGHT, WEIGHTED_LAYERS


class LayerInputs:
    """Checking what layers are given (part of `FunctionFlow`, beside `MeetingRecorder`)."""

    def layer_input_check(
        self,
        node: ast.Call,
        name: str,
        layer: str,
        args: list[tuple[ast.expr, Value]],
        index: str = "",
        certain: bool = True,
        called: str = "",
    ) -> None:
        """`self.fc(x.float())` with `self.fc = nn.Linear(...)`: the upcast input meets the
        layer's weights, a matmul operand for DTL003 (`other_names`: the weight, where a layer
        always has one). `index` leads from `self.<name>` to the layer (`[0]`); `certain`: that
        element exists wherever the call runs, so a fix may read its weight; `called`: the
        subscript the call itself writes (`self.layers[0](x)`)."""
        if layer.rsplit(".", 1)[-1] == "Sequential":  # its input meets its first weighted layer
            head = self.layer_head(name)
            layer, index, certain = (
                (head.qualname, head.index, head.certain) if head else ("", "", False)
            )
        kind = layer.rsplit(".", 1)[-1]
        if not node.args or not layer.startswith("torch.nn.") or kind not in WEIGHTED_LAYERS:
            return
        first = args[0][1]
        holder = f"self.{name}{index}" if name else "self"  # `super().forward(x.float())`
        # A layer `__init__` makes only under a condition (SAM2's `self.mask_downsample`) may
        # not exist where the cast runs: no dtype source, so the finding gets no fix.
        optional = self.cls is not None and name.split(".")[0] in self.cls.conditional_attrs
        known = kind in LAYERS_WITH_WEIGHT and not optional and certain
        weight = (f"{holder}.weight",) if known else ()
        given = node.args[0]
        if name and self.info.is_forward and kind in LAYERS_WITH_WEIGHT and not optional:
            self._note_layer_parameter(given, weight[0] if weight else "")
        if not self.info.is_tensor_taking or first.is_act or not first.flags & FIXED:
            return
        if self._kept_in_fp32(name):
            return
        op_name = f"self.{name}{called}" if name else "super().forward"
        self._record_operand(given, first, node, op_name, node.func, weight)

    def layer_head(self, name: str, element: int = 0) -> LayerHead | None:
        """The first layer `self.<name>`'s input meets, as this class's `__init__` builds it."""
        init = self.cls.method_nodes.get("__init__") if self.cls is not None else None
        value = assigned_in_init(init, name)
        return first_layer(value, self.module.qualify, element, init, name)

    def indexed_layer_check(
        self, node: ast.Call, func: ast.Subscript, args: list[tuple[ast.expr, Value]]
    ) -> None:
        """`self.layers[0](x)`, `self.temb.dense[0](temb)` (taming's timestep embedding): the
        input meets that element of a ModuleList (or Sequential) `__init__` builds."""
        path = dotted_name(func.value) or ""
        index = func.slice
        if not path.startswith("self.") or not isinstance(index, ast.Constant):
            return
        if type(index.value) is not int:
            return
        head = self.layer_head(path[len("self.") :], index.value)
        if head is not None and head.index.startswith(f"[{index.value}]"):
            name, called = path[len("self.") :], f"[{index.value}]"
            self.layer_input_check(
                node, name, head.qualname, args, head.index, head.certain, called
            )

    def looped_layer_check(
        self, node: ast.Call, loop_name: str, args: list[tuple[ast.expr, Value]]
    ) -> None:
        """`for layer in self.layers: x = layer(x)` (DETR's MLP, VQGAN's position bias): the
        input of the first pass meets the first element's weights."""
        container = self._loop_container(loop_name)
        head = self.layer_head(container) if container else None
        if container and head is not None:
            self.layer_input_check(node, container, head.qualname, args, head.index, head.certain)

    def _loop_container(self, loop_name: str) -> str | None:
        """`X` of `for <loop_name> in self.X` (or `enumerate(self.X)`, `zip(self.X, ...)`)."""
        for loop in self.module.scan(self.node).nodes:
            if not isinstance(loop, (ast.For, ast.AsyncFor)):
                continue
            source, target = loop.iter, loop.target
            if isinstance(source, ast.Call) and isinstance(source.func, ast.Name):
                wrapper, given = source.func.id, source.args
                if wrapper == "enumerate" and given and isinstance(target, ast.Tuple):
                    source, target = given[0], target.elts[-1]
                elif wrapper == "zip" and given and isinstance(target, ast.Tuple):
                    source, target = given[0], target.elts[0]
            path = dotted_name(source) or ""
            if isinstance(target, ast.Name) and target.id == loop_name and path.startswith("self."):
                return path[len("self.") :]
        return None

    def _note_layer_parameter(self, given: ast.expr, weight: str) -> None:
        """A forward's parameter given, as the caller gave it, to a layer (`Summary.layer_params`)."""
        name = given.id if isinstance(given, ast.Name) else ""
        # not reassigned yet: the caller's value
        if name in self.param_names and name not in self.assigned_from:
            self.layer_params.setdefault(name, weight[len("self.") :])

    def submodule_input_check(
        self, node: ast.Call, name: str, summary: Summary | None, args: list[tuple[ast.expr, Value]]
    ) -> None:
        """`self.timestep_proj(t_emb)` with `t_emb` returned in float32, where the submodule (a
        class of this file) gives its input unchanged to a layer of its own
        (`self.linear_1(sample)`): the upcast input meets that layer's weight (kiui's DiT)."""
        if summary is None or not summary.layer_params or not summary.params or not node.args:
            return
        weight = dict(summary.layer_params).get(summary.params[0])  # "" where uncertain
        first = args[0][1] if args and args[0][0] is node.args[0] else EMPTY
        if weight is None or not self.info.is_tensor_taking or first.is_act:
            return
        if not first.flags & FIXED or self._kept_in_fp32(name):
            return
        optional = self.cls is not None and name in self.cls.conditional_attrs
        weights = () if optional or not weight else (f"self.{name}.{weight}",)
        self._record_operand(node.args[0], first, node, f"self.{name}", node.func, weights)

    def layer_base(self, receiver: ast.expr) -> str:
        """`super()` in a subclass of a torch layer with weights: that layer's name, else ""."""
        if not (isinstance(receiver, ast.Call) and last_name(receiver.func) == "super"):
            return ""
        bases = self.cls.bases if self.cls is not None else []
        layers = [
            b for b in bases if b.startswith("torch.nn.") and b.split(".")[-1] in WEIGHTED_LAYERS
        ]
        return layers[0] if layers else ""

    def _kept_in_fp32(self, name: str) -> bool:
        """`self.<name>` is a float32 layer by `_keep_in_fp32_modules` (a name in that list is
        matched as a substring of the layer's path, as diffusers does): the layer's own name,
        or the attribute of this file's class that holds the current one."""
        kept = kept_in_fp32(self.module.tree)
        if not kept:
            return False
        if any(word in name for word in kept):
            return True
        holders = [
            attr
            for info in self.module.classes.values()
            for attr, held in info.submodule_classes.items()
            if self.cls is not None and held == self.cls.name
        ]
        return any(word in attr for attr in holders for word in kept)
