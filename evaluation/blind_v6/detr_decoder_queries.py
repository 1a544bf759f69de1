"""DETR-style transformer head: learned object queries decoded against encoder memory."""
import torch
import torch.nn as nn


class DetrHead(nn.Module):
    def __init__(self, d_model: int = 64, num_queries: int = 20, num_classes: int = 10):
        super().__init__()
        self.num_queries, self.d_model = num_queries, d_model
        self.query_embed = nn.Embedding(num_queries, d_model)
        layer = nn.TransformerDecoderLayer(d_model, nhead=4, dim_feedforward=128, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, num_layers=2)
        self.class_embed = nn.Linear(d_model, num_classes + 1)
        self.bbox_embed = nn.Linear(d_model, 4)

    def forward(self, memory: torch.Tensor, pos_embed: torch.Tensor):
        bs = memory.shape[0]
        query_pos = self.query_embed.weight.unsqueeze(0).expand(bs, -1, -1)
        tgt = torch.zeros(bs, self.num_queries, self.d_model, device=memory.device)  # expect: DTL001
        hs = self.decoder(tgt + query_pos, memory + pos_embed)
        return self.class_embed(hs), self.bbox_embed(hs).sigmoid()


def example():
    head = DetrHead().to(torch.bfloat16).eval()
    memory = torch.randn(2, 49, 64, dtype=torch.bfloat16)
    pos = torch.randn(2, 49, 64, dtype=torch.bfloat16)
    return head, (memory, pos)
