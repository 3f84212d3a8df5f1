import numpy as np
import torch

class Box:
    def go(self):
        return self.cuda()
    def h0(self):
        return 0
    def h1(self):
        return 1
    def h2(self):
        return 2
    def h3(self):
        return 3
    def h4(self):
        return 4
    def h5(self):
        return 5
    def h6(self):
        return 6
    def h7(self):
        return 7
    def h8(self):
        return 8
    def h9(self):
        return 9
    def h10(self):
        return 10
    def h11(self):
        return 11
    def h12(self):
        return 12
    def h13(self):
        return 13
    def h14(self):
        return 14
    def h15(self):
        return 15
    def h16(self):
        return 16
    def h17(self):
        return 17
    def h18(self):
        return 18
    def h19(self):
        return 19
    def h20(self):
        return 20
    def h21(self):
        return 21
    def h22(self):
        return 22
    def h23(self):
        return 23
    def h24(self):
        return 24
    def h25(self):
        return 25
    def h26(self):
        return 26
    def h27(self):
        return 27
    def h28(self):
        return 28
    def h29(self):
        return 29
    def h30(self):
        return 30
    def h31(self):
        return 31
    def h32(self):
        return 32
    def h33(self):
        return 33
    def h34(self):
        return 34
    def h35(self):
        return 35
    def h36(self):
        return 36
    def h37(self):
        return 37
    def h38(self):
        return 38
    def h39(self):
        return 39
    def h40(self):
        return 40
    def h41(self):
        return 41
    def h42(self):
        return 42
    def h43(self):
        return 43
    def h44(self):
        return 44
    def h45(self):
        return 45
    def h46(self):
        return 46
    def h47(self):
        return 47
    def h48(self):
        return 48
    def h49(self):
        return 49
    def h50(self):
        return 50
    def h51(self):
        return 51
    def h52(self):
        return 52
    def h53(self):
        return 53
    def h54(self):
        return 54
    def h55(self):
        return 55
    def h56(self):
        return 56
    def h57(self):
        return 57
    def h58(self):
        return 58
    def h59(self):
        return 59
    def h60(self):
        return 60
    def h61(self):
        return 61
    def h62(self):
        return 62
    def h63(self):
        return 63
    def h64(self):
        return 64
    def h65(self):
        return 65
    def h66(self):
        return 66
    def h67(self):
        return 67
    def h68(self):
        return 68
    def h69(self):
        return 69
    def h70(self):
        return 70
    def h71(self):
        return 71
    def h72(self):
        return 72
    def h73(self):
        return 73
    def h74(self):
        return 74
    def h75(self):
        return 75
    def h76(self):
        return 76
    def h77(self):
        return 77
    def h78(self):
        return 78
    def h79(self):
        return 79
    def h80(self):
        return 80
    def h81(self):
        return 81
    def h82(self):
        return 82
    def h83(self):
        return 83
    def h84(self):
        return 84
    def h85(self):
        return 85
    def h86(self):
        return 86
    def h87(self):
        return 87
    def h88(self):
        return 88
    def h89(self):
        return 89
    def h90(self):
        return 90
    def h91(self):
        return 91
    def h92(self):
        return 92
    def h93(self):
        return 93
    def h94(self):
        return 94
    def h95(self):
        return 95
    def h96(self):
        return 96
    def h97(self):
        return 97
    def h98(self):
        return 98
    def h99(self):
        return 99
    def h100(self):
        return 100
    def h101(self):
        return 101
    def h102(self):
        return 102
    def h103(self):
        return 103
    def h104(self):
        return 104
    def h105(self):
        return 105
    def h106(self):
        return 106
    def h107(self):
        return 107
    def h108(self):
        return 108
    def h109(self):
        return 109
    def h110(self):
        return 110
    def h111(self):
        return 111
    def h112(self):
        return 112
    def h113(self):
        return 113
    def h114(self):
        return 114
    def h115(self):
        return 115
    def h116(self):
        return 116
    def h117(self):
        return 117
    def h118(self):
        return 118
    def h119(self):
        return 119
    def h120(self):
        return 120
    def h121(self):
        return 121
    def h122(self):
        return 122
    def h123(self):
        return 123
    def h124(self):
        return 124
    def h125(self):
        return 125
    def h126(self):
        return 126
    def h127(self):
        return 127
    def h128(self):
        return 128
    def h129(self):
        return 129
    def h130(self):
        return 130
    def h131(self):
        return 131
    def h132(self):
        return 132
    def h133(self):
        return 133
    def h134(self):
        return 134
    def h135(self):
        return 135
    def h136(self):
        return 136
    def h137(self):
        return 137
    def h138(self):
        return 138
    def h139(self):
        return 139
    def h140(self):
        return 140
    def h141(self):
        return 141
    def h142(self):
        return 142
    def h143(self):
        return 143
    def h144(self):
        return 144
    def h145(self):
        return 145
    def h146(self):
        return 146
    def h147(self):
        return 147
    def h148(self):
        return 148
    def h149(self):
        return 149
    def h150(self):
        return 150
    def h151(self):
        return 151
    def h152(self):
        return 152
    def h153(self):
        return 153
    def h154(self):
        return 154
    def h155(self):
        return 155
    def h156(self):
        return 156
    def h157(self):
        return 157
    def h158(self):
        return 158
    def h159(self):
        return 159
    def h160(self):
        return 160
    def h161(self):
        return 161
    def h162(self):
        return 162
    def h163(self):
        return 163
    def h164(self):
        return 164
    def h165(self):
        return 165
    def h166(self):
        return 166
    def h167(self):
        return 167
    def h168(self):
        return 168
    def h169(self):
        return 169
    def h170(self):
        return 170
    def h171(self):
        return 171
    def h172(self):
        return 172
    def h173(self):
        return 173
    def h174(self):
        return 174
    def h175(self):
        return 175
    def h176(self):
        return 176
    def h177(self):
        return 177
    def h178(self):
        return 178
    def h179(self):
        return 179
    def h180(self):
        return 180
    def h181(self):
        return 181
    def h182(self):
        return 182
    def h183(self):
        return 183
    def h184(self):
        return 184
    def h185(self):
        return 185
    def h186(self):
        return 186
    def h187(self):
        return 187
    def h188(self):
        return 188
    def h189(self):
        return 189
    def h190(self):
        return 190
    def h191(self):
        return 191
    def h192(self):
        return 192
    def h193(self):
        return 193
    def h194(self):
        return 194
    def h195(self):
        return 195
    def h196(self):
        return 196
    def h197(self):
        return 197
    def h198(self):
        return 198
    def h199(self):
        return 199
    def h200(self):
        return 200
    def h201(self):
        return 201
    def h202(self):
        return 202
    def h203(self):
        return 203
    def h204(self):
        return 204
    def h205(self):
        return 205
    def h206(self):
        return 206
    def h207(self):
        return 207
    def h208(self):
        return 208
    def h209(self):
        return 209
    def h210(self):
        return 210
    def h211(self):
        return 211
    def h212(self):
        return 212
    def h213(self):
        return 213
    def h214(self):
        return 214
    def h215(self):
        return 215
    def h216(self):
        return 216
    def h217(self):
        return 217
    def h218(self):
        return 218
    def h219(self):
        return 219
    def h220(self):
        return 220
    def h221(self):
        return 221
    def h222(self):
        return 222
    def h223(self):
        return 223
    def h224(self):
        return 224
    def h225(self):
        return 225
    def h226(self):
        return 226
    def h227(self):
        return 227
    def h228(self):
        return 228
    def h229(self):
        return 229
    def h230(self):
        return 230
    def h231(self):
        return 231
    def h232(self):
        return 232
    def h233(self):
        return 233
    def h234(self):
        return 234
    def h235(self):
        return 235
    def h236(self):
        return 236
    def h237(self):
        return 237
    def h238(self):
        return 238
    def h239(self):
        return 239
    def h240(self):
        return 240
    def h241(self):
        return 241
    def h242(self):
        return 242
    def h243(self):
        return 243
    def h244(self):
        return 244
    def h245(self):
        return 245
    def h246(self):
        return 246
    def h247(self):
        return 247
    def h248(self):
        return 248
    def h249(self):
        return 249
    def h250(self):
        return 250
    def h251(self):
        return 251
    def h252(self):
        return 252
    def h253(self):
        return 253
    def h254(self):
        return 254
    def h255(self):
        return 255
    def h256(self):
        return 256
    def h257(self):
        return 257
    def h258(self):
        return 258
    def h259(self):
        return 259
    def h260(self):
        return 260
    def h261(self):
        return 261
    def h262(self):
        return 262
    def h263(self):
        return 263
    def h264(self):
        return 264
    def h265(self):
        return 265
    def h266(self):
        return 266
    def h267(self):
        return 267
    def h268(self):
        return 268
    def h269(self):
        return 269
    def h270(self):
        return 270
    def h271(self):
        return 271
    def h272(self):
        return 272
    def h273(self):
        return 273
    def h274(self):
        return 274
    def h275(self):
        return 275
    def h276(self):
        return 276
    def h277(self):
        return 277
    def h278(self):
        return 278
    def h279(self):
        return 279
    def h280(self):
        return 280
    def h281(self):
        return 281
    def h282(self):
        return 282
    def h283(self):
        return 283
    def h284(self):
        return 284
    def h285(self):
        return 285
    def h286(self):
        return 286
    def h287(self):
        return 287
    def h288(self):
        return 288
    def h289(self):
        return 289
    def h290(self):
        return 290
    def h291(self):
        return 291
    def h292(self):
        return 292
    def h293(self):
        return 293
    def h294(self):
        return 294
    def h295(self):
        return 295
    def h296(self):
        return 296
    def h297(self):
        return 297
    def h298(self):
        return 298
    def h299(self):
        return 299
    def cuda(self):
        return self

def train(batch, device):
    x = batch.to(device)
    a0 = 0 + 1
    a1 = 1 + 1
    a2 = 2 + 1
    a3 = 3 + 1
    a4 = 4 + 1
    a5 = 5 + 1
    a6 = 6 + 1
    a7 = 7 + 1
    a8 = 8 + 1
    a9 = 9 + 1
    a10 = 10 + 1
    a11 = 11 + 1
    a12 = 12 + 1
    a13 = 13 + 1
    a14 = 14 + 1
    a15 = 15 + 1
    a16 = 16 + 1
    a17 = 17 + 1
    a18 = 18 + 1
    a19 = 19 + 1
    a20 = 20 + 1
    a21 = 21 + 1
    a22 = 22 + 1
    a23 = 23 + 1
    a24 = 24 + 1
    a25 = 25 + 1
    a26 = 26 + 1
    a27 = 27 + 1
    a28 = 28 + 1
    a29 = 29 + 1
    a30 = 30 + 1
    a31 = 31 + 1
    a32 = 32 + 1
    a33 = 33 + 1
    a34 = 34 + 1
    a35 = 35 + 1
    a36 = 36 + 1
    a37 = 37 + 1
    a38 = 38 + 1
    a39 = 39 + 1
    a40 = 40 + 1
    a41 = 41 + 1
    a42 = 42 + 1
    a43 = 43 + 1
    a44 = 44 + 1
    a45 = 45 + 1
    a46 = 46 + 1
    a47 = 47 + 1
    a48 = 48 + 1
    a49 = 49 + 1
    a50 = 50 + 1
    a51 = 51 + 1
    a52 = 52 + 1
    a53 = 53 + 1
    a54 = 54 + 1
    a55 = 55 + 1
    a56 = 56 + 1
    a57 = 57 + 1
    a58 = 58 + 1
    a59 = 59 + 1
    a60 = 60 + 1
    a61 = 61 + 1
    a62 = 62 + 1
    a63 = 63 + 1
    a64 = 64 + 1
    a65 = 65 + 1
    a66 = 66 + 1
    a67 = 67 + 1
    a68 = 68 + 1
    a69 = 69 + 1
    a70 = 70 + 1
    a71 = 71 + 1
    a72 = 72 + 1
    a73 = 73 + 1
    a74 = 74 + 1
    a75 = 75 + 1
    a76 = 76 + 1
    a77 = 77 + 1
    a78 = 78 + 1
    a79 = 79 + 1
    a80 = 80 + 1
    a81 = 81 + 1
    a82 = 82 + 1
    a83 = 83 + 1
    a84 = 84 + 1
    a85 = 85 + 1
    a86 = 86 + 1
    a87 = 87 + 1
    a88 = 88 + 1
    a89 = 89 + 1
    a90 = 90 + 1
    a91 = 91 + 1
    a92 = 92 + 1
    a93 = 93 + 1
    a94 = 94 + 1
    a95 = 95 + 1
    a96 = 96 + 1
    a97 = 97 + 1
    a98 = 98 + 1
    a99 = 99 + 1
    a100 = 100 + 1
    a101 = 101 + 1
    a102 = 102 + 1
    a103 = 103 + 1
    a104 = 104 + 1
    a105 = 105 + 1
    a106 = 106 + 1
    a107 = 107 + 1
    a108 = 108 + 1
    a109 = 109 + 1
    a110 = 110 + 1
    a111 = 111 + 1
    a112 = 112 + 1
    a113 = 113 + 1
    a114 = 114 + 1
    a115 = 115 + 1
    a116 = 116 + 1
    a117 = 117 + 1
    a118 = 118 + 1
    a119 = 119 + 1
    a120 = 120 + 1
    a121 = 121 + 1
    a122 = 122 + 1
    a123 = 123 + 1
    a124 = 124 + 1
    a125 = 125 + 1
    a126 = 126 + 1
    a127 = 127 + 1
    a128 = 128 + 1
    a129 = 129 + 1
    a130 = 130 + 1
    a131 = 131 + 1
    a132 = 132 + 1
    a133 = 133 + 1
    a134 = 134 + 1
    a135 = 135 + 1
    a136 = 136 + 1
    a137 = 137 + 1
    a138 = 138 + 1
    a139 = 139 + 1
    a140 = 140 + 1
    a141 = 141 + 1
    a142 = 142 + 1
    a143 = 143 + 1
    a144 = 144 + 1
    a145 = 145 + 1
    a146 = 146 + 1
    a147 = 147 + 1
    a148 = 148 + 1
    a149 = 149 + 1
    a150 = 150 + 1
    a151 = 151 + 1
    a152 = 152 + 1
    a153 = 153 + 1
    a154 = 154 + 1
    a155 = 155 + 1
    a156 = 156 + 1
    a157 = 157 + 1
    a158 = 158 + 1
    a159 = 159 + 1
    a160 = 160 + 1
    a161 = 161 + 1
    a162 = 162 + 1
    a163 = 163 + 1
    a164 = 164 + 1
    a165 = 165 + 1
    a166 = 166 + 1
    a167 = 167 + 1
    a168 = 168 + 1
    a169 = 169 + 1
    a170 = 170 + 1
    a171 = 171 + 1
    a172 = 172 + 1
    a173 = 173 + 1
    a174 = 174 + 1
    a175 = 175 + 1
    a176 = 176 + 1
    a177 = 177 + 1
    a178 = 178 + 1
    a179 = 179 + 1
    a180 = 180 + 1
    a181 = 181 + 1
    a182 = 182 + 1
    a183 = 183 + 1
    a184 = 184 + 1
    a185 = 185 + 1
    a186 = 186 + 1
    a187 = 187 + 1
    a188 = 188 + 1
    a189 = 189 + 1
    a190 = 190 + 1
    a191 = 191 + 1
    a192 = 192 + 1
    a193 = 193 + 1
    a194 = 194 + 1
    a195 = 195 + 1
    a196 = 196 + 1
    a197 = 197 + 1
    a198 = 198 + 1
    a199 = 199 + 1
    a200 = 200 + 1
    a201 = 201 + 1
    a202 = 202 + 1
    a203 = 203 + 1
    a204 = 204 + 1
    a205 = 205 + 1
    a206 = 206 + 1
    a207 = 207 + 1
    a208 = 208 + 1
    a209 = 209 + 1
    a210 = 210 + 1
    a211 = 211 + 1
    a212 = 212 + 1
    a213 = 213 + 1
    a214 = 214 + 1
    a215 = 215 + 1
    a216 = 216 + 1
    a217 = 217 + 1
    a218 = 218 + 1
    a219 = 219 + 1
    a220 = 220 + 1
    a221 = 221 + 1
    a222 = 222 + 1
    a223 = 223 + 1
    a224 = 224 + 1
    a225 = 225 + 1
    a226 = 226 + 1
    a227 = 227 + 1
    a228 = 228 + 1
    a229 = 229 + 1
    a230 = 230 + 1
    a231 = 231 + 1
    a232 = 232 + 1
    a233 = 233 + 1
    a234 = 234 + 1
    a235 = 235 + 1
    a236 = 236 + 1
    a237 = 237 + 1
    a238 = 238 + 1
    a239 = 239 + 1
    a240 = 240 + 1
    a241 = 241 + 1
    a242 = 242 + 1
    a243 = 243 + 1
    a244 = 244 + 1
    a245 = 245 + 1
    a246 = 246 + 1
    a247 = 247 + 1
    a248 = 248 + 1
    a249 = 249 + 1
    a250 = 250 + 1
    a251 = 251 + 1
    a252 = 252 + 1
    a253 = 253 + 1
    a254 = 254 + 1
    a255 = 255 + 1
    a256 = 256 + 1
    a257 = 257 + 1
    a258 = 258 + 1
    a259 = 259 + 1
    a260 = 260 + 1
    a261 = 261 + 1
    a262 = 262 + 1
    a263 = 263 + 1
    a264 = 264 + 1
    a265 = 265 + 1
    a266 = 266 + 1
    a267 = 267 + 1
    a268 = 268 + 1
    a269 = 269 + 1
    a270 = 270 + 1
    a271 = 271 + 1
    a272 = 272 + 1
    a273 = 273 + 1
    a274 = 274 + 1
    a275 = 275 + 1
    a276 = 276 + 1
    a277 = 277 + 1
    a278 = 278 + 1
    a279 = 279 + 1
    a280 = 280 + 1
    a281 = 281 + 1
    a282 = 282 + 1
    a283 = 283 + 1
    a284 = 284 + 1
    a285 = 285 + 1
    a286 = 286 + 1
    a287 = 287 + 1
    a288 = 288 + 1
    a289 = 289 + 1
    a290 = 290 + 1
    a291 = 291 + 1
    a292 = 292 + 1
    a293 = 293 + 1
    a294 = 294 + 1
    a295 = 295 + 1
    a296 = 296 + 1
    a297 = 297 + 1
    a298 = 298 + 1
    a299 = 299 + 1
    a300 = 300 + 1
    a301 = 301 + 1
    a302 = 302 + 1
    a303 = 303 + 1
    a304 = 304 + 1
    a305 = 305 + 1
    a306 = 306 + 1
    a307 = 307 + 1
    a308 = 308 + 1
    a309 = 309 + 1
    a310 = 310 + 1
    a311 = 311 + 1
    a312 = 312 + 1
    a313 = 313 + 1
    a314 = 314 + 1
    a315 = 315 + 1
    a316 = 316 + 1
    a317 = 317 + 1
    a318 = 318 + 1
    a319 = 319 + 1
    a320 = 320 + 1
    a321 = 321 + 1
    a322 = 322 + 1
    a323 = 323 + 1
    a324 = 324 + 1
    a325 = 325 + 1
    a326 = 326 + 1
    a327 = 327 + 1
    a328 = 328 + 1
    a329 = 329 + 1
    a330 = 330 + 1
    a331 = 331 + 1
    a332 = 332 + 1
    a333 = 333 + 1
    a334 = 334 + 1
    a335 = 335 + 1
    a336 = 336 + 1
    a337 = 337 + 1
    a338 = 338 + 1
    a339 = 339 + 1
    a340 = 340 + 1
    a341 = 341 + 1
    a342 = 342 + 1
    a343 = 343 + 1
    a344 = 344 + 1
    a345 = 345 + 1
    a346 = 346 + 1
    a347 = 347 + 1
    a348 = 348 + 1
    a349 = 349 + 1
    a350 = 350 + 1
    a351 = 351 + 1
    a352 = 352 + 1
    a353 = 353 + 1
    a354 = 354 + 1
    a355 = 355 + 1
    a356 = 356 + 1
    a357 = 357 + 1
    a358 = 358 + 1
    a359 = 359 + 1
    a360 = 360 + 1
    a361 = 361 + 1
    a362 = 362 + 1
    a363 = 363 + 1
    a364 = 364 + 1
    a365 = 365 + 1
    a366 = 366 + 1
    a367 = 367 + 1
    a368 = 368 + 1
    a369 = 369 + 1
    a370 = 370 + 1
    a371 = 371 + 1
    a372 = 372 + 1
    a373 = 373 + 1
    a374 = 374 + 1
    a375 = 375 + 1
    a376 = 376 + 1
    a377 = 377 + 1
    a378 = 378 + 1
    a379 = 379 + 1
    a380 = 380 + 1
    a381 = 381 + 1
    a382 = 382 + 1
    a383 = 383 + 1
    a384 = 384 + 1
    a385 = 385 + 1
    a386 = 386 + 1
    a387 = 387 + 1
    a388 = 388 + 1
    a389 = 389 + 1
    a390 = 390 + 1
    a391 = 391 + 1
    a392 = 392 + 1
    a393 = 393 + 1
    a394 = 394 + 1
    a395 = 395 + 1
    a396 = 396 + 1
    a397 = 397 + 1
    a398 = 398 + 1
    a399 = 399 + 1
    a400 = 400 + 1
    a401 = 401 + 1
    a402 = 402 + 1
    a403 = 403 + 1
    a404 = 404 + 1
    a405 = 405 + 1
    a406 = 406 + 1
    a407 = 407 + 1
    a408 = 408 + 1
    a409 = 409 + 1
    a410 = 410 + 1
    a411 = 411 + 1
    a412 = 412 + 1
    a413 = 413 + 1
    a414 = 414 + 1
    a415 = 415 + 1
    a416 = 416 + 1
    a417 = 417 + 1
    a418 = 418 + 1
    a419 = 419 + 1
    a420 = 420 + 1
    a421 = 421 + 1
    a422 = 422 + 1
    a423 = 423 + 1
    a424 = 424 + 1
    a425 = 425 + 1
    a426 = 426 + 1
    a427 = 427 + 1
    a428 = 428 + 1
    a429 = 429 + 1
    a430 = 430 + 1
    a431 = 431 + 1
    a432 = 432 + 1
    a433 = 433 + 1
    a434 = 434 + 1
    a435 = 435 + 1
    a436 = 436 + 1
    a437 = 437 + 1
    a438 = 438 + 1
    a439 = 439 + 1
    a440 = 440 + 1
    a441 = 441 + 1
    a442 = 442 + 1
    a443 = 443 + 1
    a444 = 444 + 1
    a445 = 445 + 1
    a446 = 446 + 1
    a447 = 447 + 1
    a448 = 448 + 1
    a449 = 449 + 1
    a450 = 450 + 1
    a451 = 451 + 1
    a452 = 452 + 1
    a453 = 453 + 1
    a454 = 454 + 1
    a455 = 455 + 1
    a456 = 456 + 1
    a457 = 457 + 1
    a458 = 458 + 1
    a459 = 459 + 1
    a460 = 460 + 1
    a461 = 461 + 1
    a462 = 462 + 1
    a463 = 463 + 1
    a464 = 464 + 1
    a465 = 465 + 1
    a466 = 466 + 1
    a467 = 467 + 1
    a468 = 468 + 1
    a469 = 469 + 1
    a470 = 470 + 1
    a471 = 471 + 1
    a472 = 472 + 1
    a473 = 473 + 1
    a474 = 474 + 1
    a475 = 475 + 1
    a476 = 476 + 1
    a477 = 477 + 1
    a478 = 478 + 1
    a479 = 479 + 1
    a480 = 480 + 1
    a481 = 481 + 1
    a482 = 482 + 1
    a483 = 483 + 1
    a484 = 484 + 1
    a485 = 485 + 1
    a486 = 486 + 1
    a487 = 487 + 1
    a488 = 488 + 1
    a489 = 489 + 1
    a490 = 490 + 1
    a491 = 491 + 1
    a492 = 492 + 1
    a493 = 493 + 1
    a494 = 494 + 1
    a495 = 495 + 1
    a496 = 496 + 1
    a497 = 497 + 1
    a498 = 498 + 1
    a499 = 499 + 1
    a500 = 500 + 1
    a501 = 501 + 1
    a502 = 502 + 1
    a503 = 503 + 1
    a504 = 504 + 1
    a505 = 505 + 1
    a506 = 506 + 1
    a507 = 507 + 1
    a508 = 508 + 1
    a509 = 509 + 1
    a510 = 510 + 1
    a511 = 511 + 1
    a512 = 512 + 1
    a513 = 513 + 1
    a514 = 514 + 1
    a515 = 515 + 1
    a516 = 516 + 1
    a517 = 517 + 1
    a518 = 518 + 1
    a519 = 519 + 1
    a520 = 520 + 1
    a521 = 521 + 1
    a522 = 522 + 1
    a523 = 523 + 1
    a524 = 524 + 1
    a525 = 525 + 1
    a526 = 526 + 1
    a527 = 527 + 1
    a528 = 528 + 1
    a529 = 529 + 1
    a530 = 530 + 1
    a531 = 531 + 1
    a532 = 532 + 1
    a533 = 533 + 1
    a534 = 534 + 1
    a535 = 535 + 1
    a536 = 536 + 1
    a537 = 537 + 1
    a538 = 538 + 1
    a539 = 539 + 1
    a540 = 540 + 1
    a541 = 541 + 1
    a542 = 542 + 1
    a543 = 543 + 1
    a544 = 544 + 1
    a545 = 545 + 1
    a546 = 546 + 1
    a547 = 547 + 1
    a548 = 548 + 1
    a549 = 549 + 1
    a550 = 550 + 1
    a551 = 551 + 1
    a552 = 552 + 1
    a553 = 553 + 1
    a554 = 554 + 1
    a555 = 555 + 1
    a556 = 556 + 1
    a557 = 557 + 1
    a558 = 558 + 1
    a559 = 559 + 1
    a560 = 560 + 1
    a561 = 561 + 1
    a562 = 562 + 1
    a563 = 563 + 1
    a564 = 564 + 1
    a565 = 565 + 1
    a566 = 566 + 1
    a567 = 567 + 1
    a568 = 568 + 1
    a569 = 569 + 1
    a570 = 570 + 1
    a571 = 571 + 1
    a572 = 572 + 1
    a573 = 573 + 1
    a574 = 574 + 1
    a575 = 575 + 1
    a576 = 576 + 1
    a577 = 577 + 1
    a578 = 578 + 1
    a579 = 579 + 1
    a580 = 580 + 1
    a581 = 581 + 1
    a582 = 582 + 1
    a583 = 583 + 1
    a584 = 584 + 1
    a585 = 585 + 1
    a586 = 586 + 1
    a587 = 587 + 1
    a588 = 588 + 1
    a589 = 589 + 1
    a590 = 590 + 1
    a591 = 591 + 1
    a592 = 592 + 1
    a593 = 593 + 1
    a594 = 594 + 1
    a595 = 595 + 1
    a596 = 596 + 1
    a597 = 597 + 1
    a598 = 598 + 1
    a599 = 599 + 1
    y = x.double()
    return y

betas = np.linspace(0, 1, 10, dtype=np.float64)
prepare(betas)
def f0(a):
    return a + 0
def f1(a):
    return a + 1
def f2(a):
    return a + 2
def f3(a):
    return a + 3
def f4(a):
    return a + 4
def f5(a):
    return a + 5
def f6(a):
    return a + 6
def f7(a):
    return a + 7
def f8(a):
    return a + 8
def f9(a):
    return a + 9
def f10(a):
    return a + 10
def f11(a):
    return a + 11
def f12(a):
    return a + 12
def f13(a):
    return a + 13
def f14(a):
    return a + 14
def f15(a):
    return a + 15
def f16(a):
    return a + 16
def f17(a):
    return a + 17
def f18(a):
    return a + 18
def f19(a):
    return a + 19
def f20(a):
    return a + 20
def f21(a):
    return a + 21
def f22(a):
    return a + 22
def f23(a):
    return a + 23
def f24(a):
    return a + 24
def f25(a):
    return a + 25
def f26(a):
    return a + 26
def f27(a):
    return a + 27
def f28(a):
    return a + 28
def f29(a):
    return a + 29
def f30(a):
    return a + 30
def f31(a):
    return a + 31
def f32(a):
    return a + 32
def f33(a):
    return a + 33
def f34(a):
    return a + 34
def f35(a):
    return a + 35
def f36(a):
    return a + 36
def f37(a):
    return a + 37
def f38(a):
    return a + 38
def f39(a):
    return a + 39
def f40(a):
    return a + 40
def f41(a):
    return a + 41
def f42(a):
    return a + 42
def f43(a):
    return a + 43
def f44(a):
    return a + 44
def f45(a):
    return a + 45
def f46(a):
    return a + 46
def f47(a):
    return a + 47
def f48(a):
    return a + 48
def f49(a):
    return a + 49
def f50(a):
    return a + 50
def f51(a):
    return a + 51
def f52(a):
    return a + 52
def f53(a):
    return a + 53
def f54(a):
    return a + 54
def f55(a):
    return a + 55
def f56(a):
    return a + 56
def f57(a):
    return a + 57
def f58(a):
    return a + 58
def f59(a):
    return a + 59
def f60(a):
    return a + 60
def f61(a):
    return a + 61
def f62(a):
    return a + 62
def f63(a):
    return a + 63
def f64(a):
    return a + 64
def f65(a):
    return a + 65
def f66(a):
    return a + 66
def f67(a):
    return a + 67
def f68(a):
    return a + 68
def f69(a):
    return a + 69
def f70(a):
    return a + 70
def f71(a):
    return a + 71
def f72(a):
    return a + 72
def f73(a):
    return a + 73
def f74(a):
    return a + 74
def f75(a):
    return a + 75
def f76(a):
    return a + 76
def f77(a):
    return a + 77
def f78(a):
    return a + 78
def f79(a):
    return a + 79
def f80(a):
    return a + 80
def f81(a):
    return a + 81
def f82(a):
    return a + 82
def f83(a):
    return a + 83
def f84(a):
    return a + 84
def f85(a):
    return a + 85
def f86(a):
    return a + 86
def f87(a):
    return a + 87
def f88(a):
    return a + 88
def f89(a):
    return a + 89
def f90(a):
    return a + 90
def f91(a):
    return a + 91
def f92(a):
    return a + 92
def f93(a):
    return a + 93
def f94(a):
    return a + 94
def f95(a):
    return a + 95
def f96(a):
    return a + 96
def f97(a):
    return a + 97
def f98(a):
    return a + 98
def f99(a):
    return a + 99
def f100(a):
    return a + 100
def f101(a):
    return a + 101
def f102(a):
    return a + 102
def f103(a):
    return a + 103
def f104(a):
    return a + 104
def f105(a):
    return a + 105
def f106(a):
    return a + 106
def f107(a):
    return a + 107
def f108(a):
    return a + 108
def f109(a):
    return a + 109
def f110(a):
    return a + 110
def f111(a):
    return a + 111
def f112(a):
    return a + 112
def f113(a):
    return a + 113
def f114(a):
    return a + 114
def f115(a):
    return a + 115
def f116(a):
    return a + 116
def f117(a):
    return a + 117
def f118(a):
    return a + 118
def f119(a):
    return a + 119
def f120(a):
    return a + 120
def f121(a):
    return a + 121
def f122(a):
    return a + 122
def f123(a):
    return a + 123
def f124(a):
    return a + 124
def f125(a):
    return a + 125
def f126(a):
    return a + 126
def f127(a):
    return a + 127
def f128(a):
    return a + 128
def f129(a):
    return a + 129
def f130(a):
    return a + 130
def f131(a):
    return a + 131
def f132(a):
    return a + 132
def f133(a):
    return a + 133
def f134(a):
    return a + 134
def f135(a):
    return a + 135
def f136(a):
    return a + 136
def f137(a):
    return a + 137
def f138(a):
    return a + 138
def f139(a):
    return a + 139
def f140(a):
    return a + 140
def f141(a):
    return a + 141
def f142(a):
    return a + 142
def f143(a):
    return a + 143
def f144(a):
    return a + 144
def f145(a):
    return a + 145
def f146(a):
    return a + 146
def f147(a):
    return a + 147
def f148(a):
    return a + 148
def f149(a):
    return a + 149
def f150(a):
    return a + 150
def f151(a):
    return a + 151
def f152(a):
    return a + 152
def f153(a):
    return a + 153
def f154(a):
    return a + 154
def f155(a):
    return a + 155
def f156(a):
    return a + 156
def f157(a):
    return a + 157
def f158(a):
    return a + 158
def f159(a):
    return a + 159
def f160(a):
    return a + 160
def f161(a):
    return a + 161
def f162(a):
    return a + 162
def f163(a):
    return a + 163
def f164(a):
    return a + 164
def f165(a):
    return a + 165
def f166(a):
    return a + 166
def f167(a):
    return a + 167
def f168(a):
    return a + 168
def f169(a):
    return a + 169
def f170(a):
    return a + 170
def f171(a):
    return a + 171
def f172(a):
    return a + 172
def f173(a):
    return a + 173
def f174(a):
    return a + 174
def f175(a):
    return a + 175
def f176(a):
    return a + 176
def f177(a):
    return a + 177
def f178(a):
    return a + 178
def f179(a):
    return a + 179
def f180(a):
    return a + 180
def f181(a):
    return a + 181
def f182(a):
    return a + 182
def f183(a):
    return a + 183
def f184(a):
    return a + 184
def f185(a):
    return a + 185
def f186(a):
    return a + 186
def f187(a):
    return a + 187
def f188(a):
    return a + 188
def f189(a):
    return a + 189
def f190(a):
    return a + 190
def f191(a):
    return a + 191
def f192(a):
    return a + 192
def f193(a):
    return a + 193
def f194(a):
    return a + 194
def f195(a):
    return a + 195
def f196(a):
    return a + 196
def f197(a):
    return a + 197
def f198(a):
    return a + 198
def f199(a):
    return a + 199
def f200(a):
    return a + 200
def f201(a):
    return a + 201
def f202(a):
    return a + 202
def f203(a):
    return a + 203
def f204(a):
    return a + 204
def f205(a):
    return a + 205
def f206(a):
    return a + 206
def f207(a):
    return a + 207
def f208(a):
    return a + 208
def f209(a):
    return a + 209
def f210(a):
    return a + 210
def f211(a):
    return a + 211
def f212(a):
    return a + 212
def f213(a):
    return a + 213
def f214(a):
    return a + 214
def f215(a):
    return a + 215
def f216(a):
    return a + 216
def f217(a):
    return a + 217
def f218(a):
    return a + 218
def f219(a):
    return a + 219
def f220(a):
    return a + 220
def f221(a):
    return a + 221
def f222(a):
    return a + 222
def f223(a):
    return a + 223
def f224(a):
    return a + 224
def f225(a):
    return a + 225
def f226(a):
    return a + 226
def f227(a):
    return a + 227
def f228(a):
    return a + 228
def f229(a):
    return a + 229
def f230(a):
    return a + 230
def f231(a):
    return a + 231
def f232(a):
    return a + 232
def f233(a):
    return a + 233
def f234(a):
    return a + 234
def f235(a):
    return a + 235
def f236(a):
    return a + 236
def f237(a):
    return a + 237
def f238(a):
    return a + 238
def f239(a):
    return a + 239
def f240(a):
    return a + 240
def f241(a):
    return a + 241
def f242(a):
    return a + 242
def f243(a):
    return a + 243
def f244(a):
    return a + 244
def f245(a):
    return a + 245
def f246(a):
    return a + 246
def f247(a):
    return a + 247
def f248(a):
    return a + 248
def f249(a):
    return a + 249
def f250(a):
    return a + 250
def f251(a):
    return a + 251
def f252(a):
    return a + 252
def f253(a):
    return a + 253
def f254(a):
    return a + 254
def f255(a):
    return a + 255
def f256(a):
    return a + 256
def f257(a):
    return a + 257
def f258(a):
    return a + 258
def f259(a):
    return a + 259
def f260(a):
    return a + 260
def f261(a):
    return a + 261
def f262(a):
    return a + 262
def f263(a):
    return a + 263
def f264(a):
    return a + 264
def f265(a):
    return a + 265
def f266(a):
    return a + 266
def f267(a):
    return a + 267
def f268(a):
    return a + 268
def f269(a):
    return a + 269
def f270(a):
    return a + 270
def f271(a):
    return a + 271
def f272(a):
    return a + 272
def f273(a):
    return a + 273
def f274(a):
    return a + 274
def f275(a):
    return a + 275
def f276(a):
    return a + 276
def f277(a):
    return a + 277
def f278(a):
    return a + 278
def f279(a):
    return a + 279
def f280(a):
    return a + 280
def f281(a):
    return a + 281
def f282(a):
    return a + 282
def f283(a):
    return a + 283
def f284(a):
    return a + 284
def f285(a):
    return a + 285
def f286(a):
    return a + 286
def f287(a):
    return a + 287
def f288(a):
    return a + 288
def f289(a):
    return a + 289
def f290(a):
    return a + 290
def f291(a):
    return a + 291
def f292(a):
    return a + 292
def f293(a):
    return a + 293
def f294(a):
    return a + 294
def f295(a):
    return a + 295
def f296(a):
    return a + 296
def f297(a):
    return a + 297
def f298(a):
    return a + 298
def f299(a):
    return a + 299
def prepare(arr):
    return torch.from_numpy(arr).to('cuda')
