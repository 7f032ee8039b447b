"""RunSettings: the composed tool-calling and request settings of one run, as the loop reads and job.started records
them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pedro.config import BackendConfig, ToolCallingConfig, config_default, preset_model_name
from pedro.presets import DEFAULT_PROFILE, match_preset

if TYPE_CHECKING:
    from pedro.config import PedroConfig


@dataclass(frozen=True)
class RunSettings:
    """[tool_calling] plus what the configuration composed around it: the sampling values the requests carry, the
    profile they come from, and the [models."PATTERN"] preset that matched."""

    calling: ToolCallingConfig = field(default_factory=ToolCallingConfig)
    parallel_tool_calls: bool | None = None
    """[backend].parallel_tool_calls: None leaves the server's default."""
    sampling: dict[str, float] = field(default_factory=dict)
    """The sampling keys the requests carry ([backend], after the profile and the preset)."""
    preset: str | None = None
    """The pattern of the [models."PATTERN"] table that applies to the model, if one does."""
    tool_mode: str = config_default(BackendConfig, "tool_mode")
    constrain_calls: bool = False

    @classmethod
    def from_config(cls, config: PedroConfig) -> RunSettings:
        backend = config.backend
        return cls(
            calling=config.tool_calling,
            parallel_tool_calls={"true": True, "false": False}.get(backend.parallel_tool_calls),
            sampling=backend.sampling(),
            preset=match_preset(config.models, preset_model_name(backend.model_dump())),
            tool_mode=backend.tool_mode,
            constrain_calls=backend.constrain_calls,
        )

    @property
    def calls_per_turn(self) -> int:
        """Calls of one reply that run; 0 means all. A server told not to make parallel calls gets one."""
        if self.calling.max_tool_calls_per_turn:
            return self.calling.max_tool_calls_per_turn
        return 1 if self.parallel_tool_calls is False else 0

    def recorded(self) -> dict[str, Any]:
        """What job.started records, so a run can be audited and replayed with the same settings."""
        calling = self.calling.model_dump(mode="json")
        calling["max_tool_calls_per_turn"] = self.calls_per_turn
        profile = calling.pop("sampling_profile", DEFAULT_PROFILE)
        return {
            "tool_calling": calling,
            "sampling": {"profile": profile, "values": dict(self.sampling)},
            "preset": self.preset,
            "tool_mode": self.tool_mode,
            "constrain_calls": self.constrain_calls,
            "parallel_tool_calls": self.parallel_tool_calls,
        }
