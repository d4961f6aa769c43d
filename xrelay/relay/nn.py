"""`xrelay.relay.nn`: builder functions for `relay.nn.*` ops (mirrors `tvm.relay.nn`)."""

from __future__ import annotations

from xrelay.dialects.builder.deformable_conv import *  # noqa: F403
from xrelay.dialects.builder.expr import Constant as Constant  # TVM's relay.nn has it too
from xrelay.dialects.builder.fast_math import fast_softmax as fast_softmax
from xrelay.dialects.builder.nn import *  # noqa: F403
from xrelay.dialects.builder.nn_conv import *  # noqa: F403
from xrelay.dialects.builder.nn_conv_blocked import *  # noqa: F403
from xrelay.dialects.builder.nn_extra import *  # noqa: F403
from xrelay.dialects.builder.nn_movement import *  # noqa: F403
from xrelay.dialects.builder.nn_norm import *  # noqa: F403
from xrelay.dialects.builder.nn_pool_nd import *  # noqa: F403
from xrelay.dialects.builder.space_batch import *  # noqa: F403
from xrelay.dialects.builder.upsampling import *  # noqa: F403
