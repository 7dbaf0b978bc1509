"""`shelfwise build --estimate` counts model calls, tokens and price before any model call; a compile with models
over cost.confirm_above_usd (or with an unpriced model) is refused without --yes."""

from __future__ import annotations

import pytest

from shelfwise.compiler.cli.main import main
from shelfwise.compiler.errors import SettingsError
from shelfwise.compiler.settings import load_settings

POLICY = """# VIS-01 Visitor Policy

## 1 Scope

This policy covers every person who enters the Kettering site. The Health and Safety Executive (HSE) inspects it.

## 2 Badges

Visitors must wear a red badge at all times while on the production floor.
"""


def _config(tmp_path, prices: str = "", limit: float = 0.0001):
    config = tmp_path / "shelfwise.toml"
    config.write_text(
        f'build_dir = "{tmp_path / "build"}"\n[models]\nbase_url = "http://127.0.0.1:9/v1"\nextractor = "gpt-x"\n'
        f"[cost]\nconfirm_above_usd = {limit}\n{prices}",
        encoding="utf-8",
    )
    shelf = tmp_path / "badges"
    shelf.mkdir(exist_ok=True)
    (shelf / "visitor-policy.md").write_text(POLICY, encoding="utf-8")
    return config, shelf


PRICED = '[cost.prices."gpt-x"]\ninput_usd_per_million = 2.5\noutput_usd_per_million = 10\n'


def test_estimate_prints_calls_tokens_and_price_and_compiles_nothing(tmp_path, capsys):
    config, shelf = _config(tmp_path, PRICED)
    assert main(["build", str(shelf), "--config", str(config), "--estimate"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "estimate: 1 document(s), 1 new or changed (converted to count, model-free)"
    assert out[1] == "  extractor gpt-x: 1 call(s) for 2 item(s), ~400 input + ~300 output tokens, $0.0040"
    assert out[2] == "  aliases   gpt-x: 1 call(s) for 1 item(s), ~71 input + ~60 output tokens, $0.0008"  # HSE
    assert out[3] == "  briefs and dossiers: composed by code, no calls"
    assert out[4] == "total: 2 call(s), $0.0048"
    assert not (tmp_path / "build").exists()


def test_a_compile_over_the_limit_is_refused_without_yes(tmp_path, capsys):
    config, shelf = _config(tmp_path, PRICED)
    assert main(["build", str(shelf), "--config", str(config)]) == 1
    err = capsys.readouterr().err.splitlines()[-1]
    assert err == ("error: the compile would spend about $0.0048 on 2 model call(s), over cost.confirm_above_usd ($0.0001); "
                   "run again with --yes to spend it, or raise the limit")
    assert not (tmp_path / "build").exists()


def test_an_unpriced_model_needs_yes(tmp_path, capsys):
    config, shelf = _config(tmp_path, limit=100)
    assert main(["build", str(shelf), "--config", str(config)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: the compile would make 2 model call(s), some to gpt-x with no price in cost.prices; "
        "add its price to the settings or run again with --yes to spend it")


def test_prices_are_validated_by_key(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text('[cost]\nconfirm_above_usd = -1\n[cost.prices."gpt-x"]\ninput_usd_per_million = -2\n', encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        load_settings(config)
    text = str(caught.value)
    assert "cost.confirm_above_usd: Input should be greater than or equal to 0 (got -1)" in text
    assert "cost.prices.gpt-x.input_usd_per_million: Input should be greater than or equal to 0 (got -2)" in text
    assert "cost.prices.gpt-x.output_usd_per_million: required; add it" in text
