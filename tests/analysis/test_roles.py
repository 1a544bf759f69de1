def test_a_sequence_guard_is_an_isinstance_branch_that_leaves() -> None:
    import ast

    from dtypelint.analysis.roles import sequence_guard

    def guard(code: str) -> str | None:
        node = ast.parse(code).body[0]
        assert isinstance(node, ast.If)
        return sequence_guard(node)

    assert guard("if isinstance(x, (tuple, list)):\n    return [f(e) for e in x]") == "x"
    assert guard("if isinstance(x, list):\n    raise TypeError(x)") == "x"
    assert guard("if isinstance(x, (tuple, list)):\n    x = x[0]") is None  # it stays
    assert guard("if isinstance(x, dict):\n    return x") is None  # a mapping: not this
    assert guard("if isinstance(x.y, list):\n    return x") is None
