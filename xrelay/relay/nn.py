"""`xrelay.relay.nn`: builder functions for `relay.nn.*` ops (mirrors `tvm.relay.nn`)."""

from __future__ import annotations

from xrelay.dialects.builder.deformable_conv import *  # noqa: F403
from xrelay.dialects.builder.nn import *  # noqa: F403
from xrelay.dialects.builder.nn_conv import *  # noqa: F403
from xrelay.dialects.builder.nn_extra import *  # noqa: F403
from xrelay.dialects.builder.nn_movement import *  # noqa: F403
from xrelay.dialects.builder.nn_norm import *  # noqa: F403
from xrelay.dialects.builder.nn_pool_nd import *  # noqa: F403
from xrelay.dialects.builder.space_batch import *  # noqa: F403
from xrelay.dialects.builder.upsampling import *  # noqa: F403
