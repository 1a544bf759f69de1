from .fcos_head import FCOSLiteHead
from .rpn_lite_head import RPNLiteHead

__all__ = ["FCOSLiteHead", "RPNLiteHead"]
