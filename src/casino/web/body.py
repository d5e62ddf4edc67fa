"""What every request body of the JSON API shares (:class:`Body`), apart from the bodies
themselves (:mod:`casino.web.bodies`), so that a part's own body (the time control's,
:class:`casino.web.timecontrol.ClockBody`) is modelled beside the part.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class Body(BaseModel):
    """What every request body shares: its fields checked strictly (a number is not a
    string, true is not 1), and a field it does not have refused by name."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    #: What the body is, for the errors: "in the new game request".
    WHAT: ClassVar[str] = "the request"
