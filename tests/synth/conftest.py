"""Shared helpers of the synthetic photo tests: a clean mix (no light, blur or noise) so that
pixel checks see the drawn tiles as they are."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.synth import LightParams, OpticsParams, SynthParams, preset


@pytest.fixture
def clean_params() -> SynthParams:
    p = preset("default").with_size(800, 600)
    return replace(
        p,
        light=LightParams(exposure=(1.0, 1.0), unevenness=(0.0, 0.0), kelvin=(5500.0, 5500.0), glare_prob=0.0,
                          soft_shadow_prob=0.0, figure_shadow_opacity=(0.0, 0.0)),
        optics=OpticsParams(defocus_sigma_px=(0.0, 0.0), motion_prob=0.0, noise_sigma=(0.0, 0.0),
                            jpeg_quality=(95, 95)),
    )
