import torch
import torch.nn.functional as F
import torch.linalg as LA
from torch.linalg import eigvals


def features(a):
    w = torch.linalg.eig(a)
    v = eigvals(a)
    u = LA.eig(a)
    d = F.pdist(a)
    return torch.special.ndtri(a.sigmoid()), w, v, u, d
