# A file with a syntax error: tree-sitter recovers and the rest still counts.
import torch


def this is not python(:
    pass


# EXPECT-PREDICATE: eng.broken.is_sm90_arch true_on=sm_90
def is_sm90_arch():
    return torch.cuda.get_device_capability()[0] == 9
