"""tools.refit: a few weights fitted on top of a model's own scores, the rest held."""

from __future__ import annotations

import numpy as np
import pytest

from oska_gui.engine.features import NAMES
from oska_gui.engine.learned import shipped_model
from tools import refit


def test_the_offset_fit_recovers_the_weights_that_made_the_labels() -> None:
    """Labels drawn from logits plus planted weights: the fit finds those weights,
    whatever the logits already say."""
    rng = np.random.default_rng(3)
    planted = np.array([-2.5, 1.5])
    sets = []
    for size in (40_000, 20_000):
        counts = rng.integers(0, 3, size=(size, 2)).astype(float)
        logits = rng.normal(0, 2, size)
        chance = 1 / (1 + np.exp(-(logits + counts @ planted)))
        sets.append((counts, logits, (rng.random(size) < chance).astype(float)))
    theta = refit.offset_fit(sets)
    assert np.allclose(theta, planted, atol=0.15), theta
    assert refit.log_loss(sets[0], theta) < refit.log_loss(sets[0], 0 * theta)


def test_only_the_named_weights_change() -> None:
    """``with_weights`` sets the named weights and keeps everything else of the model."""
    model = shipped_model(5)
    changed = refit.with_weights(model, ["own_exposed", "their_unmatched"], [1.25, -0.5])
    assert changed.weights[NAMES.index("own_exposed")] == 1.25
    assert changed.weights[NAMES.index("their_unmatched")] == -0.5
    others = [i for i, name in enumerate(NAMES) if name not in ("own_exposed", "their_unmatched")]
    assert [changed.weights[i] for i in others] == [model.weights[i] for i in others]
    assert (changed.table, changed.windows, changed.patterns) \
        == (model.table, model.windows, model.patterns)


def test_an_unknown_weight_name_is_refused(capsys: pytest.CaptureFixture) -> None:
    """A misspelt name stops the command with a message naming it, before any work."""
    with pytest.raises(SystemExit) as stop:
        refit.main(["--names", "own_unmached"])
    assert stop.value.code == 2
    assert "own_unmached" in capsys.readouterr().err
